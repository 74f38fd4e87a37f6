package dev.cabinet.projection;

import dev.cabinet.table.AggregateStream;
import dev.cabinet.table.Key;

/**
 * The aggregate an event belongs to: its stream (declared in the key plan), the root and tombstone keys of this
 * aggregate, and whether the event creates it (then it must find no root, else it must find one), or may find either
 * ({@code upserts}: a registration that a concurrent one may have made already).
 */
public record StreamTarget(AggregateStream stream, Key root, Key tombstone, String label, boolean creates,
        boolean upserts) {

    private static final StreamTarget NONE = new StreamTarget(null, null, null, null, false, false);

    /** An event of an existing aggregate. */
    public static StreamTarget of(AggregateStream stream, Object... id) {
        return new StreamTarget(stream, stream.rootKey(id), stream.tombstoneKey(id), label(stream, id), false, false);
    }

    /** The event that creates the aggregate. */
    public static StreamTarget creating(AggregateStream stream, Object... id) {
        return new StreamTarget(stream, stream.rootKey(id), stream.tombstoneKey(id), label(stream, id), true, false);
    }

    /** An event that creates the aggregate or, if it exists already, updates it (never rejected for either). */
    public static StreamTarget upserting(AggregateStream stream, Object... id) {
        return new StreamTarget(stream, stream.rootKey(id), stream.tombstoneKey(id), label(stream, id), false, true);
    }

    /** An event that is a fact on its own (a metric sample): no root, written as it is, again harmlessly. */
    public static StreamTarget none() {
        return NONE;
    }

    public boolean isNone() {
        return stream == null;
    }

    private static String label(AggregateStream stream, Object... id) {
        StringBuilder label = new StringBuilder(stream.name());
        for (Object part : id) {
            label.append(' ').append(part);
        }
        return label.toString();
    }
}
