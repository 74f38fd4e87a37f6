package dev.cabinet.projection.contract;

import java.time.Instant;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.table.OwnerFence;

/**
 * An event read from the log: its CloudEvents attributes, its typed data, where it sits in the log and the owner epoch
 * of its partition when the projector admitted it ({@code ownerEpoch}; 0: applied outside any partition's ownership,
 * as an operator's retry is, so its counts carry no fence).
 */
public record ReceivedEvent(String id, String type, String subject, String actor, Instant time, DomainEvent data,
        LogPosition position, long ownerEpoch) {

    /** An event applied outside any partition's ownership. */
    public ReceivedEvent(String id, String type, String subject, String actor, Instant time, DomainEvent data,
            LogPosition position) {
        this(id, type, subject, actor, time, data, position, 0);
    }

    /** The same event, applied under the partition's owner epoch. */
    public ReceivedEvent underEpoch(long epoch) {
        return new ReceivedEvent(id, type, subject, actor, time, data, position, epoch);
    }

    /** The fence its counts carry: none outside any partition's ownership. */
    public OwnerFence fence() {
        return ownerEpoch == 0 ? null : new OwnerFence(position.topic(), position.partition(), ownerEpoch);
    }

    /** The record's offset, the version number projections guard their items with (see {@link LogPosition}). */
    public long version() {
        return position.offset();
    }
}
