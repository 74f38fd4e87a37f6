package dev.cabinet.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * Freshness of the hand-written path: a post sent by the baseline's {@code POST /watched-posts} (one record), written
 * by the naive projector's one unconditional PutItem, and seen by a watcher that looks for it in the naive table as
 * often as Cabinet's freshness watcher looks for Cabinet's posts. At Cabinet's rate, on the same broker, store and
 * cores, it is the floor any projection has here: what is left of Cabinet's figure above it is Cabinet's own.
 */
final class NaiveFreshness {

    /** What one run measured: from each 202 until its item was seen, in microseconds, and the posts never seen. */
    record Result(Histogram latency, long accepted, long missed, long looks) {

        double p50Millis() {
            return latency.getValueAtPercentile(50) / 1000.0;
        }

        double p99Millis() {
            return latency.getValueAtPercentile(99) / 1000.0;
        }

        double maxMillis() {
            return latency.getMaxValue() / 1000.0;
        }
    }

    private final RawStore store;
    private final String table;
    private final Duration lookEvery;
    private final int lookLimit;

    NaiveFreshness(RawStore store, String table, Duration lookEvery, int lookLimit) {
        this.store = store;
        this.table = table;
        this.lookEvery = lookEvery;
        this.lookLimit = lookLimit;
    }

    /** Sends posts at {@code rate} for {@code phase}, then waits up to 15 s for the last ones to be seen. */
    Result measure(Http baseline, double rate, Duration phase, String body) throws InterruptedException {
        Map<String, Long> acceptedAt = new ConcurrentHashMap<>();
        Map<String, Long> unseen = new ConcurrentHashMap<>();
        Map<String, Long> seenAt = new ConcurrentHashMap<>();
        AtomicLong looks = new AtomicLong();
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                long sent = System.nanoTime();
                // the oldest unseen first, at most lookLimit of them: one BatchGetItem, as Cabinet's watcher makes one Query
                List<String> ids = unseen.entrySet().stream().sorted(Map.Entry.comparingByValue())
                        .limit(lookLimit).map(Map.Entry::getKey).toList();
                if (!ids.isEmpty()) {
                    look(ids).forEach(id -> {
                        seenAt.putIfAbsent(id, System.nanoTime());
                        unseen.remove(id);
                    });
                    looks.incrementAndGet();
                }
                LockSupport.parkNanos(Math.max(0, lookEvery.toNanos() - (System.nanoTime() - sent)));
            }
        }, "naive-freshness-watcher");
        watcher.start();
        try {
            Load.constantRate("freshness: POST /watched-posts (baseline)", rate, phase, 256, sequence -> baseline
                    .send("POST", "/watched-posts", "", Map.of("title", "Fresh " + sequence, "body", body), 202)
                    .thenAccept(answer -> {
                        // the watcher looks only for accepted ids, so none is seen before it is here
                        long now = System.nanoTime();
                        acceptedAt.put(answer.get("id").asText(), now);
                        unseen.put(answer.get("id").asText(), now);
                    }));
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (!unseen.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            watching.set(false);
            watcher.join();
        }
        Histogram latency = new Histogram(3);
        acceptedAt.forEach((id, accepted) -> {
            Long seen = seenAt.get(id);
            if (seen != null) {
                latency.recordValue(Math.max(1, (seen - accepted) / 1000));
            }
        });
        return new Result(latency, acceptedAt.size(), acceptedAt.size() - latency.getTotalCount(), looks.get());
    }

    /** The ids among these whose item the naive projector has written; a failed look sees none. */
    private List<String> look(List<String> ids) {
        List<Map<String, AttributeValue>> keys = ids.stream().map(id -> Map.of(
                "pk", AttributeValue.fromS("NAIVE#" + id), "sk", AttributeValue.fromS("EVENT"))).toList();
        try {
            return store.dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                    KeysAndAttributes.builder().keys(keys).projectionExpression("pk").build()))).join()
                    .responses().getOrDefault(table, List.of()).stream()
                    .map(item -> item.get("pk").s().substring("NAIVE#".length())).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }
}
