package dev.cabinet.projection.failure;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Records that the projector rejected an event (it could not apply, e.g. a comment on a post deleted meanwhile), by
 * event id, so the client that sent the command can learn it. A rejection depends only on the events of the same
 * aggregate before it, which the log orders, so replaying the log reaches the same decision; the first record wins.
 * (So no decision refuses an event because another aggregate's item is not there yet, or no longer, which a
 * replay's order can bring about; the exceptions left are in docs/design.md.)
 */
@ApplicationScoped
public class Rejections {

    private static final Logger LOG = Logger.getLogger(Rejections.class);

    private final TableWriter store;
    private final MeterRegistry registry;

    public Rejections(TableWriter store, MeterRegistry registry) {
        this.store = store;
        this.registry = registry;
    }

    public Uni<Void> reject(ReceivedEvent event, String reason) {
        LOG.warnf("Rejected %s %s (%s): %s", event.type(), event.id(), event.position().token(), reason);
        registry.counter("cabinet.projection.rejected", "type", event.type()).increment();
        if (!Ids.isValid(event.id())) {
            // A foreign producer's event id that cannot be a key: the log line and the metric are all there is.
            return Uni.createFrom().voidItem();
        }
        ItemUpdate outcome = ItemUpdate.of(KeyPlan.EVENT_OUTCOME.key(event.id()), KeyPlan.EVENT_OUTCOME)
                .setIfAbsent(Attributes.EVENT_ID, event.id())
                .setIfAbsent(Attributes.EVENT_TYPE, event.type());
        if (event.subject() != null) {
            outcome.setIfAbsent(Attributes.SUBJECT, event.subject());
        }
        // A rejection takes the place of a parked mark (an operator's retry rejected the event, and the projector's
        // mark, late, landed after the retry cleared it: the retry clears it again at its end, and the rejection would
        // go with it); any other outcome was first, and stays.
        return store.update(outcome
                .set(Attributes.STATUS, "rejected")
                .set(Attributes.REASON, reason)
                .set(Attributes.POSITION, event.position().token())
                .set(Attributes.DECIDED_AT, Timestamps.format(Instant.now()))
                .onlyIfLacksOrEquals(Attributes.STATUS, ParkedKeys.PARKED))
                .replaceWithVoid();
    }
}
