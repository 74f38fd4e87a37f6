package dev.cabinet.eventlog;

/** A fact about one aggregate; {@link #aggregateId()} keys its record in the log, which keeps its events in order. */
public interface DomainEvent {

    String aggregateId();
}
