package dev.cabinet.table;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The write side's consistent reads, sent at once while fewer than {@code limit} are in flight and otherwise queued
 * and sent together when one ends: one BatchGetItem of up to 100 keys (a key several callers want is read once) for
 * every caller that waited. At a low rate every read goes out alone and at once; under load, when the projector's
 * concurrent events read their streams' roots and what they need, the reads of many events share a call, and the client
 * and the store do the work of one request for all of them (most of a projector's CPU is its store calls' fixed cost).
 * Each caller still sees every key as it was at some instant after it asked, which is all a consistent read promises.
 */
final class CoalescedReads {

    /** One caller's keys, the source of its store calls, and what it is answered: the items found, by key. */
    private record Request(List<Key> keys, String source,
            CompletableFuture<Map<Key, Map<String, AttributeValue>>> found) {
    }

    private final int limit;
    private final Function<Key, Uni<Optional<Map<String, AttributeValue>>>> get;
    private final Function<List<Key>, Uni<List<Map<String, AttributeValue>>>> batchGet;
    private final Deque<Request> queued = new ArrayDeque<>();
    private int inFlight;

    /**
     * {@code get} reads one key (GetItem); {@code batchGet} reads distinct keys (BatchGetItem, 100 a call), answering
     * the items found.
     */
    CoalescedReads(int limit, Function<Key, Uni<Optional<Map<String, AttributeValue>>>> get,
            Function<List<Key>, Uni<List<Map<String, AttributeValue>>>> batchGet) {
        if (limit < 1) {
            throw new IllegalArgumentException("at least one read in flight, not " + limit);
        }
        this.limit = limit;
        this.get = get;
        this.batchGet = batchGet;
    }

    /** The items found among {@code keys}, by key; the call counted against {@code source} unless shared. */
    CompletionStage<Map<Key, Map<String, AttributeValue>>> read(List<Key> keys, String source) {
        Request request = new Request(keys, source, new CompletableFuture<>());
        boolean now;
        synchronized (this) {
            now = inFlight < limit;
            if (now) {
                inFlight++;
            } else {
                queued.addLast(request);
            }
        }
        if (now) {
            send(List.of(request));
        }
        return request.found();
    }

    /** How many reads wait for one in flight to end (tests). */
    synchronized int queued() {
        return queued.size();
    }

    private void send(List<Request> requests) {
        Set<Key> keys = new LinkedHashSet<>();
        requests.forEach(request -> keys.addAll(request.keys()));
        Uni<Map<Key, Map<String, AttributeValue>>> call;
        try {
            call = keys.size() == 1 ? one(keys.iterator().next()) : many(List.copyOf(keys));
        } catch (RuntimeException e) {
            call = Uni.createFrom().failure(e);
        }
        Uni<Map<Key, Map<String, AttributeValue>>> sent = call;
        // One caller's read is counted against its source; a read many shared, against none.
        String source = requests.stream().map(Request::source).distinct().count() == 1 ? requests.get(0).source()
                : null;
        StoreCallSource.during(source, () -> sent.subscribe().with(found -> {
            next();
            requests.forEach(request -> request.found().complete(found));
        }, failure -> {
            next();
            requests.forEach(request -> request.found().completeExceptionally(failure));
        }));
    }

    private Uni<Map<Key, Map<String, AttributeValue>>> one(Key key) {
        return get.apply(key).map(item -> item.map(found -> Map.of(key, found)).orElse(Map.of()));
    }

    private Uni<Map<Key, Map<String, AttributeValue>>> many(List<Key> keys) {
        return batchGet.apply(keys).map(items -> {
            Map<Key, Map<String, AttributeValue>> byKey = new HashMap<>();
            items.forEach(item -> byKey.put(Key.of(item), item));
            return byKey;
        });
    }

    /** A read ended: what waited goes out in one call (whole requests, up to the keys one BatchGetItem holds). */
    private void next() {
        List<Request> next = new ArrayList<>();
        synchronized (this) {
            Set<Key> keys = new HashSet<>();
            while (!queued.isEmpty()) {
                List<Key> asked = queued.peekFirst().keys();
                long added = asked.stream().distinct().filter(key -> !keys.contains(key)).count();
                if (!next.isEmpty() && keys.size() + added > BatchGets.LIMIT) {
                    break;
                }
                keys.addAll(asked);
                next.add(queued.pollFirst());
            }
            if (next.isEmpty()) {
                inFlight--;
                return;
            }
        }
        send(next);
    }
}
