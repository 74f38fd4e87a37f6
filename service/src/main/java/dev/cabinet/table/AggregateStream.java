package dev.cabinet.table;

/**
 * An aggregate's stream as the projection sees it, declared once in the {@link KeyPlan}: the root item its events are
 * recorded on (every event's write plan updates it first, with the stream version in {@code versionAttribute}), and the
 * tombstone its deletion leaves, if it can be deleted (null otherwise). {@code name} is how rejections name it.
 */
public record AggregateStream(String name, ItemType root, ItemType tombstone, String versionAttribute) {

    /** The root's key for the aggregate with these key values. */
    public Key rootKey(Object... id) {
        return root.key(id);
    }

    /** The tombstone's key, or null for a stream that leaves none. */
    public Key tombstoneKey(Object... id) {
        return tombstone == null ? null : tombstone.key(id);
    }
}
