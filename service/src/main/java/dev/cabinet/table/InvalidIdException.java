package dev.cabinet.table;

/** An id that does not match {@link Ids#PATTERN}; the HTTP layer answers it with a 400 naming the field. */
public final class InvalidIdException extends IllegalArgumentException {

    private final String field;

    public InvalidIdException(String field, String value) {
        super(field + " must match " + Ids.PATTERN + (value == null ? " (it is missing)" : ""));
        this.field = field;
    }

    public String field() {
        return field;
    }
}
