package dev.cabinet.eventlog;

import java.util.Optional;

/**
 * Whether a command may still hand its event to the log, and which event it handed over: the request's deadline closes
 * it, so that an answer saying "nothing was sent" stays true even if the command's chain was about to send when the
 * deadline passed. One per request ({@link CommandIds#gate()}); a plain object, as the deadline fires on a timer thread
 * where the request's scope is not active.
 */
public final class SendGate {

    private boolean closed;
    private String sent;

    /** Records that {@code eventId} goes to the log now; false (and nothing may be sent) once the gate is closed. */
    public synchronized boolean send(String eventId) {
        if (closed) {
            return false;
        }
        sent = eventId;
        return true;
    }

    /** Closes the gate: no event is sent after this. Returns the event sent before, if any (its outcome is unknown). */
    public synchronized Optional<String> close() {
        closed = true;
        return Optional.ofNullable(sent);
    }
}
