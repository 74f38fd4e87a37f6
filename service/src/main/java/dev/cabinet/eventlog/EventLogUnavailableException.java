package dev.cabinet.eventlog;

/**
 * Kafka did not answer a question about the log (how far a partition reaches), so nothing was changed; the HTTP layer
 * answers 503. An event the log did not acknowledge is an {@link OutcomeUnknownException} instead.
 */
public final class EventLogUnavailableException extends RuntimeException {

    public EventLogUnavailableException(Throwable cause) {
        super("the event log did not acknowledge the event: " + cause.getMessage(), cause);
    }
}
