package dev.cabinet.projection;

import java.util.List;

import dev.cabinet.eventlog.EventType;
import io.smallrye.mutiny.Uni;

/**
 * The former projector contract (being replaced by the pure {@link Projector}): a feature's projector that turns each event it handles into item writes, each guarded (by version or token) so that
 * applying an event again changes nothing. The engine owns order, batching, concurrency and retries.
 */
public interface LegacyProjector {

    /** The event types this projector applies; together they form the catalog the engine decodes records with. */
    List<EventType<?>> eventTypes();

    Uni<Void> apply(ReceivedEvent event);
}
