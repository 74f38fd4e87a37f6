package dev.cabinet.projection;

import java.util.Map;
import java.util.Optional;

import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyQuery;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A derived attribute kept equal to a pure function of an item and its parent (a folder's path and ancestors), named by
 * a plan's {@link WritePlan.Derive} step. The decisions are here; {@link dev.cabinet.projection.execution.Derivations}
 * runs the protocol: read the item and its parent (or take the parent as a walk down the tree wrote it), write
 * {@link #derive} as a compare-and-set, refresh the item's {@link #entry} under the parent while looking at the
 * parent again, pass changes down to the {@link #children}.
 */
public interface Derivation {

    /** The name plans use in {@link WritePlan.Derive}. */
    String name();

    /** The parent's key, or empty for an item at the top. */
    Optional<Key> parent(Map<String, AttributeValue> item);

    /** What {@link #derive} found for one item. */
    record Derived(Optional<ItemUpdate> write, Optional<String> leftBecause) {

        /** The item is up to date with its parent already. */
        public static Derived upToDate() {
            return new Derived(Optional.empty(), Optional.empty());
        }

        /** The write (a compare-and-set on what was read) that brings the item up to date. */
        public static Derived write(ItemUpdate update) {
            return new Derived(Optional.of(update), Optional.empty());
        }

        /** The item must be left as it is, and nothing below it passed the change: the reason is logged. */
        public static Derived leave(String reason) {
            return new Derived(Optional.empty(), Optional.of(reason));
        }
    }

    /** What the item needs given its parent as read, or as the walk wrote it (empty: none, or gone). */
    Derived derive(Map<String, AttributeValue> item, Optional<Map<String, AttributeValue>> parent);

    /**
     * The write that refreshes the item's entry in its parent's listing after each derivation, made only where the
     * entry exists (so an item moved away meanwhile does not reappear in its old parent) and only from a later
     * {@link #revision} of the item than the entry was refreshed from (the item may have been read before a change);
     * empty when it has none.
     */
    Optional<ItemUpdate> entry(Map<String, AttributeValue> item);

    /** The revision every write of the item moves: a parent read again at another revision changed meanwhile. */
    long revision(Map<String, AttributeValue> item);

    /** The items whose derivation depends on the item at {@code key}, found by key condition. */
    KeyQuery children(Key key);

    /** The key of a dependant from the item {@link #children} found. */
    Key childKey(Map<String, AttributeValue> found);

    /**
     * The dependant as far as the entry {@link #children} found tells it, enough for {@link #derive} to write it from
     * {@code parent} (its compare-and-set on the revision the entry holds), or empty when the entry cannot tell (the
     * dependant is read then). A walk down from a changed item then writes each dependant without reading it first,
     * a round fewer per level; an entry behind its item costs a refused write, after which the item is read.
     */
    default Optional<Map<String, AttributeValue>> fromEntry(Map<String, AttributeValue> found,
            Map<String, AttributeValue> parent) {
        return Optional.empty();
    }
}
