package dev.cabinet.table;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A denormalized copy of a stream root's attributes onto other items (a user's name on their posts), declared once in
 * the {@link KeyPlan}: which attributes are copied ({@code attributes}: the holder's name to the source's), how every
 * holder of a source is found (a Query of the {@code walked} type's collection in {@code index}, keyed by the source's
 * values) and which item a found item names ({@code holder}), and the attribute in which each holder keeps the
 * source's stream version its copy is current as of ({@code copyVersion}). A copy is only ever overwritten by a newer
 * one, so copies converge in whatever order renames and new items interleave.
 * <p>
 * The source's erasure ({@code erasedAt} on it) travels the same way: the copy then also replaces the holder's
 * {@code authored} attributes (text the source's person wrote) with the placeholder, and records when in
 * {@code subjectErasedAt}; a copy that copies no attribute walks its holders only for an erasure.
 */
public record DeclaredCopy(String name, AggregateStream source, List<Map.Entry<String, String>> attributes,
        ItemType walked, Index index, ItemType holder, String copyVersion, List<String> authored) {

    /** What an erased person's name and text read as, in events and in every copy. */
    public static final String ERASED = "[erased]";

    /** A copy of attributes only, with nothing the person wrote on the holder. */
    public DeclaredCopy(String name, AggregateStream source, List<Map.Entry<String, String>> attributes,
            ItemType walked, Index index, ItemType holder, String copyVersion) {
        this(name, source, attributes, walked, index, holder, copyVersion, List.of());
    }

    /** Whether the source, as read, was erased. */
    public static boolean erased(Optional<Map<String, AttributeValue>> source) {
        return source.filter(item -> Items.has(item, Attributes.ERASED_AT)).isPresent();
    }

    /** Whether the source's state needs its holders walked: a change of what it copies, or the source's erasure. */
    public boolean walksFor(Map<String, AttributeValue> source) {
        return !attributes.isEmpty() || erased(Optional.of(source));
    }

    /** The source's version as a copy sees it: -1 for a source that does not exist (yet), older than any. */
    public long versionOf(Optional<Map<String, AttributeValue>> source) {
        return source.filter(item -> Items.has(item, this.source.versionAttribute()))
                .map(item -> Items.number(item, this.source.versionAttribute())).orElse(-1L);
    }

    /**
     * Copies the source as read onto a new holder's write, with the version it is current as of: a source that does not
     * exist yet gives no attribute values and version -1, so any later state of it replaces the copy.
     */
    public ItemUpdate copyOnto(ItemUpdate holderWrite, Optional<Map<String, AttributeValue>> source) {
        if (attributes.isEmpty() && !erased(source)) {
            return holderWrite;   // nothing to copy, and no version to keep: an erasure's refresh applies to it anyway
        }
        long version = versionOf(source);
        for (Map.Entry<String, String> copied : attributes) {
            AttributeValue value = version < 0 ? null : source.get().get(copied.getValue());
            if (value != null) {
                holderWrite.set(copied.getKey(), value);
            }
        }
        erase(holderWrite, source);
        return holderWrite.set(copyVersion, version);
    }

    /** For an erased source: what the person wrote on the holder becomes the placeholder, and the erasure is recorded. */
    private void erase(ItemUpdate holderWrite, Optional<Map<String, AttributeValue>> source) {
        if (erased(source)) {
            authored.forEach(attribute -> holderWrite.set(attribute, ERASED));
            holderWrite.set(Attributes.SUBJECT_ERASED_AT, source.get().get(Attributes.ERASED_AT));
        }
    }

    /** Whether the keys are a source and a holder of this copy. */
    public boolean covers(Key sourceKey, Key holderKey) {
        return source.root().matches(sourceKey) && holder.matches(holderKey);
    }

    /**
     * The refresh of an existing holder from the source as it is now: only if the holder still exists (a rename never
     * brings back a deleted item) and holds an older copy.
     */
    public ItemUpdate refresh(Key holderKey, Map<String, AttributeValue> source) {
        ItemUpdate update = ItemUpdate.of(holderKey);
        for (Map.Entry<String, String> copied : attributes) {
            update.set(copied.getKey(), source.get(copied.getValue()));
        }
        erase(update, Optional.of(source));
        return update.onlyIfExists().guardedBy(copyVersion, versionOf(Optional.of(source)));
    }

    /** Every holder of the source's copies: the walked type's collection (or index partition) keyed by the source. */
    public KeyQuery walk(Map<String, AttributeValue> source) {
        Map<String, String> values = strings(source);
        if (index == Index.TABLE) {
            return KeyQuery.of(index, walked.pk().renderFrom(values).orElseThrow(),
                    SortKeyCondition.beginsWith(walked.sk().prefix()), false);
        }
        IndexEntry entry = walked.entryIn(index).orElseThrow();
        return KeyQuery.of(index, entry.pk().renderFrom(values).orElseThrow(),
                entry.sk().prefix().isEmpty() ? SortKeyCondition.any() : SortKeyCondition.beginsWith(entry.sk().prefix()),
                false);
    }

    /** The holder a found item names (the found item itself when the holder is the walked type). */
    public Key holderKey(Map<String, AttributeValue> found) {
        if (holder == walked && index == Index.TABLE) {
            return Key.of(found);
        }
        return holder.keyFrom(strings(found));
    }

    private static Map<String, String> strings(Map<String, AttributeValue> item) {
        Map<String, String> values = new HashMap<>();
        item.forEach((attribute, value) -> {
            if (value.s() != null) {
                values.put(attribute, value.s());
            }
        });
        return values;
    }
}
