package dev.cabinet.projection;

import java.util.List;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.table.Key;

/**
 * A feature's projector: a pure decision from an event and the items it declared it needs to a {@link WritePlan}. It
 * makes no store calls and knows nothing of versions, redelivery or retries; the {@link PlanExecutor} reads what the
 * projector names, in one round, and turns the plan into conditional writes with every guarantee.
 *
 * @param <E> the feature's sealed event interface
 */
public interface Projector<E extends DomainEvent> {

    /** The event types this projector decides; together they form the catalog the engine decodes records with. */
    List<EventType<? extends E>> eventTypes();

    /** The aggregate stream the event is recorded on, or {@link StreamTarget#none()} for an event that is a fact. */
    StreamTarget target(E event);

    /** Items besides the stream's root (and tombstone) that {@link #decide} reads; read in the same round. */
    default List<Key> needs(E event) {
        return List.of();
    }

    /** What the event does, given the items read ({@link Reads#root()} is empty only for a creation). */
    WritePlan decide(E event, Reads reads);
}
