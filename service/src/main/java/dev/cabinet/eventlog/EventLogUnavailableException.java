package dev.cabinet.eventlog;

/** Kafka did not acknowledge an event; the command was not accepted (the HTTP layer answers 503). */
public final class EventLogUnavailableException extends RuntimeException {

    public EventLogUnavailableException(Throwable cause) {
        super("the event log did not acknowledge the event: " + cause.getMessage(), cause);
    }
}
