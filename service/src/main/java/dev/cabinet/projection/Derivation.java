package dev.cabinet.projection;

import java.util.Map;
import java.util.Optional;

import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyQuery;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A derived attribute kept equal to a pure function of an item and its parent (a folder's path and ancestors), named
 * by a plan's {@link WritePlan.Derive} step. The decisions are here; {@link Derivations} runs the protocol: read the
 * item and its parent, write {@link #derive} as a compare-and-set, look at the parent again, pass changes down.
 */
public interface Derivation {

    /** The name plans use in {@link WritePlan.Derive}. */
    String name();

    /** The parent's key, or empty for an item at the top. */
    Optional<Key> parent(Map<String, AttributeValue> item);

    /**
     * The write that brings the item up to date with its parent, as a compare-and-set on what was read; empty when the
     * item is up to date already (or must be left as it is).
     */
    Optional<ItemUpdate> derive(Map<String, AttributeValue> item, Optional<Map<String, AttributeValue>> parent);

    /** The items whose derivation depends on this one (found by key condition), and their keys from the found items. */
    KeyQuery children(Key key);

    Key childKey(Map<String, AttributeValue> found);
}
