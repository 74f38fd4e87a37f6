package dev.cabinet.table;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An item collection: item types that share one partition-key template (the same literals and kinds of placeholder)
 * in an index and are read together by one
 * Query (a post's metadata and its comments). Declaring it makes the sharing deliberate: a Query may only return the
 * item types of the collection it names, which {@code ItemCollectionTest} proves from the templates.
 */
public record ItemCollection(String name, Index index, KeyTemplate partition, List<ItemType> itemTypes) {

    public ItemCollection {
        itemTypes = List.copyOf(itemTypes);
        for (ItemType type : itemTypes) {
            KeyTemplate pk = pkOf(type, index);
            if (pk == null || !pk.pattern().pattern().equals(partition.pattern().pattern())) {
                throw new IllegalArgumentException(name + ": " + type + " is not keyed by " + partition + " in "
                        + index);
            }
        }
    }

    /** A collection of these item types, which must all have the same partition-key template in {@code index}. */
    public static ItemCollection of(String name, Index index, ItemType... itemTypes) {
        KeyTemplate pk = pkOf(itemTypes[0], index);
        if (pk == null) {
            throw new IllegalArgumentException(itemTypes[0] + " has no entry in " + index);
        }
        return new ItemCollection(name, index, pk, List.of(itemTypes));
    }

    /** The collection of one item type alone, for the many Queries that read a single type. */
    public static ItemCollection of(Index index, ItemType itemType) {
        return of(itemType.name(), index, itemType);
    }

    public boolean declares(ItemType type) {
        return itemTypes.contains(type);
    }

    /** The partition-key template of an item type in an index (its GSI entry's), or null if it has no entry there. */
    public static KeyTemplate pkOf(ItemType type, Index index) {
        return index == Index.TABLE ? type.pk() : type.entryIn(index).map(IndexEntry::pk).orElse(null);
    }

    /** The sort-key template of an item type in an index, or null if it has no entry there. */
    public static KeyTemplate skOf(ItemType type, Index index) {
        return index == Index.TABLE ? type.sk() : type.entryIn(index).map(IndexEntry::sk).orElse(null);
    }

    @Override
    public String toString() {
        return name + " (" + itemTypes.stream().map(ItemType::name).collect(Collectors.joining(", ")) + ")";
    }
}
