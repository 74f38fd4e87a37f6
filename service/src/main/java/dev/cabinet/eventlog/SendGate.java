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
    private String begun;

    /**
     * Records that the command begins an effect of its own before its event (an erasure's key destruction): a deadline
     * that passes before the event is sent then says the effect may be done ({@link #begun}).
     */
    public synchronized void begin(String effect) {
        begun = effect;
    }

    /** The effect the command began before its event, if any. */
    public synchronized Optional<String> begun() {
        return Optional.ofNullable(begun);
    }

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
