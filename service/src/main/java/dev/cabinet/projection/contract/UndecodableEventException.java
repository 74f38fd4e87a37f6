package dev.cabinet.projection.contract;

import dev.cabinet.projection.failure.UnappliableEventException;

/** A record that is not a readable event of a known type: bad JSON, a missing field or header. */
public class UndecodableEventException extends UnappliableEventException {

    public UndecodableEventException(String reason) {
        super(reason);
    }
}
