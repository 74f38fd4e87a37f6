package dev.cabinet.projection;

/**
 * A record whose {@code ce_type} no projector handles, such as a newer version of an event than this projector knows:
 * parked until a projector that knows it is deployed and an operator retries the key.
 */
final class UnknownEventTypeException extends UndecodableEventException {

    UnknownEventTypeException(String type) {
        super("no projector handles event type " + type);
    }
}
