package dev.cabinet.eventlog;

/** A fact about one aggregate; {@link #aggregateId()} keys its record in the log, which keeps its events in order. */
public interface DomainEvent {

    String aggregateId();

    /**
     * Whose {@link dev.cabinet.erasure.PersonalData personal data} the event carries: the key it is sealed under. Null for an event that carries none, or
     * whose personal data is its actor's (a post's edit, which only its author makes).
     */
    default String dataSubject() {
        return null;
    }
}
