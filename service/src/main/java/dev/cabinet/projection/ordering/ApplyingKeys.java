package dev.cabinet.projection.ordering;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/**
 * How many keys one projector applies at the same time, across every batch in flight of every consumer: without
 * it each batch applied {@code cabinet.projection.concurrency} keys of its own, so a projector behind (3 consumers,
 * 4 batches each) had hundreds of store calls waiting for the store client's 50 connections, where calls timed out
 * acquiring one and whole events were retried. A key asks once its previous events are done (so a key holding
 * a permit can always run, and none waits for a permit held by one that waits for it); permits go in the order asked.
 */
public final class ApplyingKeys {

    private static final CompletableFuture<Void> GRANTED = CompletableFuture.completedFuture(null);

    private final int limit;
    private final Deque<CompletableFuture<Void>> waiting = new ArrayDeque<>();
    private int applying;

    ApplyingKeys(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("at least one key at a time, not " + limit);
        }
        this.limit = limit;
    }

    /** Completes when the key may apply; the caller must {@link #release()} once it is done, whatever happens. */
    synchronized CompletableFuture<Void> acquire() {
        if (applying < limit) {
            applying++;
            return GRANTED;
        }
        CompletableFuture<Void> permit = new CompletableFuture<>();
        waiting.addLast(permit);
        return permit;
    }

    /**
     * Ends a key's use of the place {@link #acquire()} answered, however the key ended: a granted place is handed
     * on; one still waiting (the key stopped before its turn came) is withdrawn, so a key cancelled while it
     * waited can never keep a place that was granted to it after it stopped.
     */
    void release(CompletableFuture<Void> place) {
        if (place.cancel(false)) {
            return; // never granted, now withdrawn (or withdrawn already): it holds nothing to hand on
        }
        release();
    }

    /** Hands the permit to the longest waiting key still waiting (one cancelled meanwhile is passed over). */
    void release() {
        while (true) {
            CompletableFuture<Void> next;
            synchronized (this) {
                next = waiting.pollFirst();
                if (next == null) {
                    applying--;
                    return;
                }
            }
            if (next.complete(null)) {
                return;
            }
        }
    }
}
