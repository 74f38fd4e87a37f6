package dev.cabinet.shared;

/** A value refused for a key (an id, timestamp or shard); the HTTP layer answers it with a 400 naming the field. */
public final class InvalidIdException extends IllegalArgumentException {

    private final String field;
    private final String reason;

    /** An id that does not match {@link Ids#PATTERN}. */
    public InvalidIdException(String field, String value) {
        this(field, value, "match " + Ids.PATTERN);
    }

    /** A value that is not what its placeholder expects, e.g. {@code "be a timestamp like 2026-01-31T12:00:00.000Z"}. */
    public InvalidIdException(String field, String value, String expectation) {
        this(field, "must " + expectation + (value == null ? " (it is missing)" : ""), (Void) null);
    }

    private InvalidIdException(String field, String reason, Void marker) {
        super(field + " " + reason);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    /** Why the value was refused, without the field's name. */
    public String reason() {
        return reason;
    }
}
