package dev.cabinet.projection.failure;

/**
 * An event that no number of retries will apply: it cannot be read, its type is unknown, or its projector failed for a
 * reason other than a transient store error. It goes to the dead-letter topic and parks its key.
 */
public class UnappliableEventException extends RuntimeException {

    public UnappliableEventException(String reason) {
        super(reason);
    }

    public UnappliableEventException(String reason, Throwable cause) {
        super(reason, cause);
    }

    /** What the dead-letter headers, the parked key and the command's outcome say. */
    public String reason() {
        return getMessage();
    }
}
