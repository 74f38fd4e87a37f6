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

    public Reads(Optional<Map<String, AttributeValue>> root, Map<Key, Optional<Map<String, AttributeValue>>> items) {
        this(root, items, Map.of());
    }

    /** {@code existing}: whether each of the projector's {@link Projector#existenceNeeds} exists. */
    public Reads(Optional<Map<String, AttributeValue>> root, Map<Key, Optional<Map<String, AttributeValue>>> items,
            Map<Key, Boolean> existing) {
        this.root = root;
        this.items = Map.copyOf(items);
        this.existing = Map.copyOf(existing);
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
