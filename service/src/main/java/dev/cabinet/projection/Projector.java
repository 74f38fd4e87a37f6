package dev.cabinet.projection;

import java.util.List;

import dev.cabinet.eventlog.EventType;
import io.smallrye.mutiny.Uni;

/**
 * A feature's projector: turns each event it handles into item writes, each guarded (by version or token) so that
 * applying an event again changes nothing. The engine owns order, batching, concurrency and retries.
 */
public interface Projector {

    /** The event types this projector applies; together they form the catalog the engine decodes records with. */
    List<EventType<?>> eventTypes();

    Uni<Void> apply(ReceivedEvent event);
}
