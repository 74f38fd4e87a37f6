package dev.cabinet.projection;

import java.util.List;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.table.Key;

/**
 * A feature's projector: a pure decision from an event and the items it declared it needs to a {@link WritePlan}. It
 * makes no store calls and knows nothing of versions, redelivery or retries; the {@link
 * dev.cabinet.projection.execution.PlanExecutor} reads what the projector names, in one round, and turns the plan into
 * conditional writes with every guarantee.
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

    /**
     * Items {@link #decide} looks at only to know whether they exist ({@link Reads#exists}), each of a type that is
     * never deleted once written ({@link dev.cabinet.table.ItemType#permanent()}): a file's folder. Read in the same
     * round as the needs; since deciding again later sees the same, such a read does not keep the event's writes from
     * going out with its recording ({@link dev.cabinet.projection.execution.Rounds#recordsWithWrites}), as a need
     * outside the stream's own partition does.
     */
    default List<Key> existenceNeeds(E event) {
        return List.of();
    }

    /** What the event does, given the items read ({@link Reads#root()} is empty only for a creation). */
    WritePlan decide(E event, Reads reads);
}
