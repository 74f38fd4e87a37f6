package dev.cabinet.projection;

import java.util.Map;
import java.util.Optional;

import dev.cabinet.table.Key;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What the executor read for a decision: the stream's root and each item the projector said it needs. */
public final class Reads {

    private final Optional<Map<String, AttributeValue>> root;
    private final Map<Key, Optional<Map<String, AttributeValue>>> items;
    private final Map<Key, Boolean> existing;
    private final String versionAttribute;
    private final long version;

    public Reads(Optional<Map<String, AttributeValue>> root, Map<Key, Optional<Map<String, AttributeValue>>> items) {
        this(root, items, Map.of());
    }

    /** {@code existing}: whether each of the projector's {@link Projector#existenceNeeds} exists. */
    public Reads(Optional<Map<String, AttributeValue>> root, Map<Key, Optional<Map<String, AttributeValue>>> items,
            Map<Key, Boolean> existing) {
        this(root, items, existing, null, -1);
    }

    /**
     * The reads of an event that gives its stream {@code version}, which the stream's items carry in
     * {@code versionAttribute} once one of its writes made them (null for an event without a stream).
     */
    public Reads(Optional<Map<String, AttributeValue>> root, Map<Key, Optional<Map<String, AttributeValue>>> items,
            Map<Key, Boolean> existing, String versionAttribute, long version) {
        this.root = root;
        this.items = Map.copyOf(items);
        this.existing = Map.copyOf(existing);
        this.versionAttribute = versionAttribute;
        this.version = version;
    }

    /** The version this event gives its stream (its record's offset); -1 where the decision is made without one. */
    public long version() {
        return version;
    }

    /**
     * Whether the item was written by this very event: it carries the event's version, which only this event's writes
     * give the stream's items. An earlier attempt made that write and crashed before its recording landed (see
     * {@link WritePlan#decidesAlikeAfterWriting}); a decision that reads what it writes tells its own write from the
     * item as it was by this.
     */
    public boolean writtenByThisEvent(Key key) {
        return versionAttribute != null && item(key).map(item -> item.get(versionAttribute))
                .map(value -> value.n() != null && Long.parseLong(value.n()) == version).orElse(false);
    }

    /** The root item as it was before this event; empty only when the event creates the aggregate. */
    public Optional<Map<String, AttributeValue>> root() {
        return root;
    }

    /** The root, for an event that found one (any event but a creation). */
    public Map<String, AttributeValue> existingRoot() {
        return root.orElseThrow(() -> new IllegalStateException("the event's decision needs its aggregate's root"));
    }

    /** An item the projector declared in {@link Projector#needs}; empty when it does not exist. */
    public Optional<Map<String, AttributeValue>> item(Key key) {
        Optional<Map<String, AttributeValue>> item = items.get(key);
        if (item == null) {
            throw new IllegalArgumentException(key + (existing.containsKey(key)
                    ? " was declared in existenceNeeds(): the decision may ask only whether it exists"
                    : " was not declared in needs(); the executor did not read it"));
        }
        return item;
    }

    /** Whether an item declared in {@link Projector#existenceNeeds} or {@link Projector#needs} exists. */
    public boolean exists(Key key) {
        Boolean exists = existing.get(key);
        return exists != null ? exists : item(key).isPresent();
    }
}
