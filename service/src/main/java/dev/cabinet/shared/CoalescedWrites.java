package dev.cabinet.shared;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * Writes to one item per key with at most one write in flight per key: what is asked for while a write is in flight
 * waits and goes out together in the next one. Under load many changes to one item then cost one write per store
 * round trip rather than one each, and at a low rate every change goes out at once. Used for each partition's progress
 * (the next write carries the highest offset asked for), for exactly-once counter changes (one change of the sum, all
 * tokens at once) and for releasing their tokens.
 */
public final class CoalescedWrites<K, V, R> {

    /** One key's state: whether a write is in flight, and what waits for the next one. */
    private static final class Pending<V, R> {
        boolean writing;
        final List<Waiter<V, R>> waiters = new ArrayList<>();
    }

    private record Waiter<V, R>(V value, CompletableFuture<R> done) {
    }

    private final BiFunction<K, List<V>, CompletionStage<List<R>>> write;
    private final Map<K, Pending<V, R>> keys = new HashMap<>();

    /**
     * {@code write} writes everything asked for a key since its previous write, in the order asked, and answers what
     * each of those values is answered, in the same order.
     */
    public CoalescedWrites(BiFunction<K, List<V>, CompletionStage<List<R>>> write) {
        this.write = write;
    }

    /** Writes whose values all get the same answer: nothing ({@code null}) once the write succeeded. */
    public static <K, V> CoalescedWrites<K, V, Void> of(BiFunction<K, List<V>, CompletionStage<Void>> write) {
        return new CoalescedWrites<>((key, values) -> write.apply(key, values)
                .thenApply(nothing -> new ArrayList<Void>(Collections.nCopies(values.size(), null))));
    }

    /** Completes with what a write that carried {@code value} answered it, or fails as that write failed. */
    public CompletionStage<R> record(K key, V value) {
        CompletableFuture<R> done = new CompletableFuture<>();
        boolean start;
        synchronized (this) {
            Pending<V, R> state = keys.computeIfAbsent(key, k -> new Pending<>());
            state.waiters.add(new Waiter<>(value, done));
            start = !state.writing;
            state.writing = true;
        }
        if (start) {
            writeNext(key);
        }
        return done;
    }

    /** Completes once everything asked for until now has been written (or failed): nothing fails it. */
    public CompletionStage<Void> settled() {
        List<CompletableFuture<R>> all = new ArrayList<>();
        synchronized (this) {
            keys.values().forEach(state -> state.waiters.forEach(waiter -> all.add(waiter.done())));
        }
        return CompletableFuture.allOf(all.stream().map(done -> done.handle((answer, failure) -> null))
                .toArray(CompletableFuture[]::new));
    }

    /** Whether nothing asked for is waiting or being written. */
    public synchronized boolean idle() {
        return keys.isEmpty();
    }

    private void writeNext(K key) {
        List<Waiter<V, R>> carried;
        synchronized (this) {
            carried = List.copyOf(keys.get(key).waiters);
        }
        CompletionStage<List<R>> written;
        try {
            written = write.apply(key, carried.stream().map(Waiter::value).toList());
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        written.whenComplete((answers, failure) -> {
            boolean more;
            synchronized (this) {
                Pending<V, R> state = keys.get(key);
                state.waiters.subList(0, carried.size()).clear();   // they were the first, and waiters only append
                more = !state.waiters.isEmpty();
                state.writing = more;
                if (!more) {
                    keys.remove(key);
                }
            }
            for (int i = 0; i < carried.size(); i++) {
                if (failure == null) {
                    carried.get(i).done().complete(answers.get(i));
                } else {
                    carried.get(i).done().completeExceptionally(failure);
                }
            }
            if (more) {
                writeNext(key);
            }
        });
    }
}
