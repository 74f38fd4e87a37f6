package dev.cabinet.projection;

/** A record whose {@code ce_type} no projector handles. */
final class UnknownEventTypeException extends UndecodableEventException {

    UnknownEventTypeException(String type) {
        super("no projector handles event type " + type);
    }
}
