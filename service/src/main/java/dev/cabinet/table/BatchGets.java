package dev.cabinet.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * BatchGetItem over any number of keys, for the read side and the projector alike: 100 keys a call (its limit), all
 * calls at once, and the keys the store leaves unprocessed (throttling) asked for again with backoff, at most
 * {@code rounds} times ({@link UnprocessedRetries}). Each caller sends the requests its own way (metered and
 * time-limited on the write side). Absent items are not returned.
 */
final class BatchGets {

    /** BatchGetItem's limit of keys per call. */
    static final int LIMIT = 100;

    private BatchGets() {
    }

    static Uni<List<Map<String, AttributeValue>>> all(String table, List<Key> keys, boolean consistent,
            int rounds, Function<BatchGetItemRequest, Uni<BatchGetItemResponse>> send) {
        List<Uni<List<Map<String, AttributeValue>>>> batches = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += LIMIT) {
            batches.add(batch(table, keys.subList(from, Math.min(from + LIMIT, keys.size())).stream()
                    .map(Key::toAttributes).toList(), consistent, 0, rounds, send));
        }
        return batches.isEmpty() ? Uni.createFrom().item(List.of())
                : Uni.join().all(batches).andFailFast().map(found -> found.stream().flatMap(List::stream).toList());
    }

    private static Uni<List<Map<String, AttributeValue>>> batch(String table, List<Map<String, AttributeValue>> keys,
            boolean consistent, int round, int rounds,
            Function<BatchGetItemRequest, Uni<BatchGetItemResponse>> send) {
        BatchGetItemRequest request = BatchGetItemRequest.builder().requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build())).build();
        return send.apply(request).chain(response -> {
            List<Map<String, AttributeValue>> found = response.responses().getOrDefault(table, List.of());
            KeysAndAttributes left = response.unprocessedKeys().get(table);
            if (left == null || left.keys().isEmpty()) {
                return Uni.createFrom().item(found);
            }
            return UnprocessedRetries.after(round, rounds, left.keys().size() + " keys",
                    () -> batch(table, left.keys(), consistent, round + 1, rounds, send)).map(more -> {
                List<Map<String, AttributeValue>> all = new ArrayList<>(found);
                all.addAll(more);
                return all;
            });
        });
    }
}
