package dev.cabinet.projection.contract;

import java.time.Instant;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.LogPosition;

/** An event read from the log: its CloudEvents attributes, its typed data and where it sits in the log. */
public record ReceivedEvent(String id, String type, String subject, String actor, Instant time, DomainEvent data,
        LogPosition position) {

    /** The record's offset, the version number projections guard their items with (see {@link LogPosition}). */
    public long version() {
        return position.offset();
    }
}
