package dev.cabinet.projection.failure;

/**
 * An event that no number of retries will apply: it cannot be read, its type is unknown, or its projector failed for a
 * reason other than a transient store error. It goes to the dead-letter topic and parks its key.
 */
public class UnappliableEventException extends RuntimeException {

    /**
     * The longest reason kept: a reason may quote what a record carries (its type, key or time, which another producer
     * may make hundreds of KB long), and it is stored on the parked key, the parked event and the outcome, whose items
     * DynamoDB refuses beyond 400 KB: refused, the record could not be parked and stopped its partition.
     */
    public static final int REASON_MAX = 2000;

    public UnappliableEventException(String reason) {
        super(bounded(reason));
    }

    public UnappliableEventException(String reason, Throwable cause) {
        super(bounded(reason), cause);
    }

    /** The reason, cut to {@link #REASON_MAX} characters (pure). */
    public static String bounded(String reason) {
        return reason == null || reason.length() <= REASON_MAX ? reason
                : reason.substring(0, REASON_MAX - 1) + "…";
    }

    /** What the dead-letter headers, the parked key and the command's outcome say. */
    public String reason() {
        return getMessage();
    }
}
