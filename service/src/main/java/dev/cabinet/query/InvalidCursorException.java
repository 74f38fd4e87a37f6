package dev.cabinet.query;

/** A cursor that was not made by this service for this list; answered with a 400. */
public final class InvalidCursorException extends IllegalArgumentException {

    public InvalidCursorException(String reason) {
        super("cursor is not valid for this list: " + reason);
    }
}
