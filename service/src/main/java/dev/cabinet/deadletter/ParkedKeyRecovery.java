package dev.cabinet.deadletter;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import dev.cabinet.http.Problems;
import dev.cabinet.projection.execution.EventApplier;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.failure.UnappliableEventException;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator's retry or discard of a parked key. Both walk the key's parked events in log order and unpark the key
 * only if no event was parked behind it meanwhile (a conditional delete on {@code lastParkedOffset}); otherwise they go
 * on with the newcomers. Applying goes through the same idempotent projectors as the engine, so an event that the engine
 * also applies in the instant the key is released changes nothing the second time. Blocking: runs on a worker thread.
 */
@ApplicationScoped
class ParkedKeyRecovery {

    private static final Logger LOG = Logger.getLogger(ParkedKeyRecovery.class);
    private static final Duration STORE_WAIT = Duration.ofSeconds(30);
    private static final int TRANSIENT_ATTEMPTS = 5;
    private static final int MAX_ROUNDS = 20;

    private final ParkedKeys parkedKeys;
    private final ParkedRecords records;
    private final EventApplier applier;

    ParkedKeyRecovery(ParkedKeys parkedKeys, ParkedRecords records, EventApplier applier) {
        this.parkedKeys = parkedKeys;
        this.records = records;
        this.applier = applier;
    }

    /** Applies every parked event of the key in order, then unparks it; stops at the first that still cannot apply. */
    RecoveryResult retry(String parkedKeyId, String operator) {
        int applied = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Map<String, AttributeValue> key = parkedKey(parkedKeyId);
            List<Map<String, AttributeValue>> events = await(parkedKeys.events(parkedKeyId));
            String topic = Items.string(key, Attributes.TOPIC);
            int partition = (int) Items.number(key, Attributes.PARTITION);
            List<ConsumerRecord<String, byte[]>> parked = events.isEmpty() ? List.of()
                    : records.read(topic, partition,
                            events.stream().map(e -> Items.number(e, Attributes.OFFSET)).toList());
            for (int i = 0; i < parked.size(); i++) {
                ConsumerRecord<String, byte[]> record = parked.get(i);
                String eventId = Items.string(events.get(i), "eventId");
                await(parkedKeys.clearOutcome(eventId));
                try {
                    await(applier.apply(record, TRANSIENT_ATTEMPTS));
                } catch (UnappliableEventException e) {
                    await(parkedKeys.stillFails(parkedKeyId, record.offset(), e.reason()));
                    await(parkedKeys.markParked(record, e.reason()));
                    LOG.warnf("Retry of parked key %s by %s: %s-%d@%d still fails: %s", parkedKeyId, operator, topic,
                            partition, record.offset(), e.reason());
                    throw Problems.conflict("the event at " + topic + "-" + partition + "@" + record.offset()
                            + " still cannot be applied (" + applied + " applied before it): " + e.reason());
                }
                await(parkedKeys.release(parkedKeyId, record.topic(), record.partition(), record.offset()));
                applied++;
            }
            if (await(parkedKeys.unpark(parkedKeyId, Items.number(key, Attributes.LAST_PARKED_OFFSET)))) {
                LOG.infof("Parked key %s retried by %s: %d event(s) applied, key released", parkedKeyId, operator,
                        applied);
                return new RecoveryResult(parkedKeyId, "released", applied, 0);
            }
        }
        throw Problems.conflict("events keep being parked behind key " + parkedKeyId + "; try again");
    }

    /**
     * Discards the key's parked events, recording it in their commands' outcomes: all of them (the key is released), or
     * only the first, the one that failed (the others wait for a retry).
     */
    RecoveryResult discard(String parkedKeyId, boolean onlyFirst, String operator) {
        String reason = "discarded by operator " + operator;
        int discarded = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Map<String, AttributeValue> key = parkedKey(parkedKeyId);
            List<Map<String, AttributeValue>> events = await(parkedKeys.events(parkedKeyId));
            List<Map<String, AttributeValue>> discarding = onlyFirst ? events.subList(0, Math.min(1, events.size()))
                    : events;
            for (Map<String, AttributeValue> event : discarding) {
                await(parkedKeys.discardOutcome(Items.string(event, Attributes.EVENT_ID), reason));
                await(parkedKeys.release(parkedKeyId, Items.string(event, Attributes.TOPIC),
                        (int) Items.number(event, Attributes.PARTITION), Items.number(event, Attributes.OFFSET)));
                discarded++;
            }
            boolean othersWait = events.size() > discarding.size();
            if (!othersWait
                    && await(parkedKeys.unpark(parkedKeyId, Items.number(key, Attributes.LAST_PARKED_OFFSET)))) {
                LOG.infof("Parked key %s: %d event(s) discarded by %s, key released", parkedKeyId, discarded, operator);
                return new RecoveryResult(parkedKeyId, "released", 0, discarded);
            }
            if (onlyFirst) {
                LOG.infof("Parked key %s: its first event discarded by %s; the others wait for a retry", parkedKeyId,
                        operator);
                return new RecoveryResult(parkedKeyId, "parked", 0, discarded);
            }
        }
        throw Problems.conflict("events keep being parked behind key " + parkedKeyId + "; try again");
    }

    private Map<String, AttributeValue> parkedKey(String parkedKeyId) {
        return await(parkedKeys.key(parkedKeyId))
                .orElseThrow(() -> Problems.notFound("parked key", parkedKeyId));
    }

    private static <T> T await(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
