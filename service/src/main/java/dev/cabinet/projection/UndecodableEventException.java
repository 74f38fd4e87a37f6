package dev.cabinet.projection;

/** A record that is not a readable event of a known type: bad JSON, a missing field or header. */
class UndecodableEventException extends UnappliableEventException {

    UndecodableEventException(String reason) {
        super(reason);
    }
}
