package dev.cabinet.eventlog;

/**
 * The log did not acknowledge an event in time: it may still be appended (a frozen broker may write it when it wakes),
 * or never. The HTTP layer answers 503 naming the event, whose fate {@code GET /commands/{eventId}} tells later.
 */
public final class OutcomeUnknownException extends RuntimeException {

    private final String eventId;

    public OutcomeUnknownException(String eventId, Throwable cause) {
        super("the event log did not acknowledge event " + eventId + (cause == null ? " in time" : ": " + cause.getMessage()),
                cause);
        this.eventId = eventId;
    }

    public String eventId() {
        return eventId;
    }
}
