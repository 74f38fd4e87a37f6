package dev.cabinet.projection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * Records each partition's progress with at most one write in flight per partition: batches that finish while a write
 * is in flight are covered by the next one, which carries the highest offset asked for. Small batches then cost one
 * progress write per store round trip rather than one each, and the store's time goes to the events.
 */
final class ProgressWrites<P> {

    /** One partition's progress: the offset written last, the highest asked for, and who waits for which. */
    private static final class Partition {
        long written = -1;
        long wanted = -1;
        boolean writing;
        final List<Waiter> waiters = new ArrayList<>();
    }

    private record Waiter(long offset, CompletableFuture<Void> done) {
    }

    private final BiFunction<P, Long, CompletionStage<Void>> write;
    private final Map<P, Partition> partitions = new HashMap<>();

    /** {@code write} records that the partition is applied up to the offset (a write that only moves upwards). */
    ProgressWrites(BiFunction<P, Long, CompletionStage<Void>> write) {
        this.write = write;
    }

    /** Completes once a write has recorded the partition applied at least up to {@code offset}. */
    CompletionStage<Void> record(P partition, long offset) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean start;
        synchronized (this) {
            Partition state = partitions.computeIfAbsent(partition, p -> new Partition());
            if (offset <= state.written) {
                return CompletableFuture.completedFuture(null);
            }
            state.wanted = Math.max(state.wanted, offset);
            state.waiters.add(new Waiter(offset, done));
            start = !state.writing;
            state.writing = true;
        }
        if (start) {
            writeNext(partition);
        }
        return done;
    }

    private void writeNext(P partition) {
        long offset;
        synchronized (this) {
            offset = partitions.get(partition).wanted;
        }
        CompletionStage<Void> written;
        try {
            written = write.apply(partition, offset);
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        written.whenComplete((nothing, failure) -> {
            List<Waiter> finished = new ArrayList<>();
            boolean more;
            synchronized (this) {
                Partition state = partitions.get(partition);
                if (failure == null) {
                    state.written = Math.max(state.written, offset);
                }
                state.waiters.removeIf(waiter -> (failure != null || waiter.offset() <= state.written)
                        && finished.add(waiter));
                more = !state.waiters.isEmpty();
                state.writing = more;
            }
            finished.forEach(waiter -> {
                if (failure == null) {
                    waiter.done().complete(null);
                } else {
                    waiter.done().completeExceptionally(failure);
                }
            });
            if (more) {
                writeNext(partition);
            }
        });
    }
}
