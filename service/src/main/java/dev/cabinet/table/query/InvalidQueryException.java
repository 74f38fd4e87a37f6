package dev.cabinet.table.query;

/**
 * A read the query layer refuses before it touches the table: a {@code limit} out of bounds, a cursor not made for
 * the list. The query layer knows no HTTP; the web layer answers this with a 400 naming {@link #field()}.
 */
public final class InvalidQueryException extends IllegalArgumentException {

    private final String field;
    private final String reason;

    public InvalidQueryException(String field, String reason) {
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
