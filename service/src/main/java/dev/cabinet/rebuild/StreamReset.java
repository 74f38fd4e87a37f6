package dev.cabinet.rebuild;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.cabinet.table.AggregateStream;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One aggregate kind's part in rebuilding one stream (pure: the key's events and the items found in, the reset out):
 * whether a key's events are a stream of this kind, and which items that stream owns, so what is reset before its
 * events are applied again. {@link StreamRebuilds} does the rest alike for every kind.
 */
interface StreamReset {

    /**
     * What to do before the events are applied again: {@code deletes} (in the stream's partition and outside it),
     * {@code resets}, and the event ids held pending on {@code counter} meanwhile (another aggregate's item the stream
     * only counts on, whose counts are made already; null and none when the stream counts on nothing outside).
     */
    record Reset(List<Key> deletes, List<ItemUpdate> resets, Key counter, Set<String> tokens) {

        /** A reset that only deletes: the stream owns every count on its items and counts on nothing else. */
        static Reset deleting(List<Key> deletes) {
            return new Reset(List.copyOf(deletes), List.of(), null, Set.of());
        }
    }

    /** The event topic of this kind's streams. */
    String topic();

    /** The stream as the key plan declares it; its root's partition holds the stream's item collection. */
    AggregateStream stream();

    /** Why the key's events are not a stream of this kind, in the words of the refusal; empty when they are. */
    Optional<String> notAStream(String key, List<RecordedEvent> events);

    /**
     * The reset of stream {@code key}, from every item of its partition as found and the events that will be applied
     * again (in log order; those an operator discarded left out).
     */
    Reset reset(String key, List<Map<String, AttributeValue>> partition, List<RecordedEvent> events);

    /** Whether an item of the stream's partition is the stream's own, for the count of its items after a rebuild. */
    boolean owns(Map<String, AttributeValue> item);

    /** The partition of the stream's item collection: its root's. */
    default String partition(String key) {
        return stream().rootKey(key).pk();
    }

    /**
     * Whether the key's events name it in {@code attribute}, as the events of a stream keyed by its aggregate id do:
     * at least one, and every readable one (unreadable records are left to the projector, which says why).
     */
    static boolean nameTheKey(String key, List<RecordedEvent> events, String attribute) {
        return events.stream().anyMatch(event -> key.equals(event.field(attribute)))
                && events.stream().allMatch(event -> event.data().isMissingNode()
                        || key.equals(event.field(attribute)));
    }
}
