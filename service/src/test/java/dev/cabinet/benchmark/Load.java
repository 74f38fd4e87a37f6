package dev.cabinet.benchmark;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Two load generators over asynchronous operations. Closed loop: a fixed number of callers, each starting its next
 * operation when the previous one ends; that finds the throughput limit at a given concurrency. Open loop: operations
 * started at a constant rate, each one's latency measured from when it was meant to start, so a stall counts against
 * every operation it delayed (no coordinated omission, as wrk2 measures).
 */
final class Load {

    /** One asynchronous operation; the future fails (or completes exceptionally) if the operation did not succeed. */
    @FunctionalInterface
    interface Operation {
        CompletableFuture<?> start(long sequence);
    }

    /** What a run measured, by whichever generator ran it ({@code generator}: "jdk" or "wrk"). */
    record Result(String name, String generator, long completed, long failed, double seconds, double p50Millis,
            double p99Millis, double maxMillis) {

        /** A run of this class's generators, from its histogram of latencies in microseconds. */
        static Result of(String name, long completed, long failed, double seconds, Histogram latency) {
            return new Result(name, "jdk", completed, failed, seconds, latency.getValueAtPercentile(50) / 1000.0,
                    latency.getValueAtPercentile(99) / 1000.0, latency.getMaxValue() / 1000.0);
        }

        double perSecond() {
            return completed / seconds;
        }

        /** A stall: the slowest request took more than ten times the 99th percentile. */
        boolean stalled() {
            return completed > 0 && maxMillis > 10 * p99Millis;
        }

        @Override
        public String toString() {
            return String.format("%s [%s]: %d ok, %d failed in %.1f s = %.0f/s, p50 %.2f ms, p99 %.2f ms, max %.1f ms",
                    name, generator, completed, failed, seconds, perSecond(), p50Millis, p99Millis, maxMillis);
        }
    }

    /** Told of every measured run (the report's table of phases, the stall recordings); nothing by default. */
    private static volatile Consumer<Result> listener = result -> { };

    static void onResult(Consumer<Result> listener) {
        Load.listener = listener;
    }

    /** Prints a finished run and tells the listener; for runs made elsewhere too (wrk). */
    static Result finished(Result result) {
        System.out.println("[bench] " + result);
        listener.accept(result);
        return result;
    }

    private Load() {
    }

    /** {@code concurrency} callers back to back for {@code duration}; the first tenth of it warms up unmeasured. */
    static Result closedLoop(String name, int concurrency, Duration duration, Operation operation) {
        return closedLoop(name, concurrency, duration, operation, () -> { });
    }

    /** The same, calling {@code whenTimed} between the warm-up and the measured run (to read CPU counters). */
    static Result closedLoop(String name, int concurrency, Duration duration, Operation operation, Runnable whenTimed) {
        runClosed(concurrency, duration.dividedBy(10), operation, new ConcurrentHistogram(3), new AtomicLong(),
                new AtomicLong());
        whenTimed.run();
        ConcurrentHistogram latency = new ConcurrentHistogram(3);
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        double seconds = runClosed(concurrency, duration, operation, latency, completed, failed);
        return finished(Result.of(name, completed.get(), failed.get(), seconds, latency));
    }

    private static double runClosed(int concurrency, Duration duration, Operation operation, ConcurrentHistogram latency,
            AtomicLong completed, AtomicLong failed) {
        long started = System.nanoTime();
        long deadline = started + duration.toNanos();
        AtomicLong sequence = new AtomicLong();
        CompletableFuture<?>[] callers = new CompletableFuture<?>[concurrency];
        for (int i = 0; i < concurrency; i++) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            next(operation, sequence, deadline, latency, completed, failed, done);
            callers[i] = done;
        }
        CompletableFuture.allOf(callers).join();
        return (System.nanoTime() - started) / 1e9;
    }

    private static void next(Operation operation, AtomicLong sequence, long deadline, ConcurrentHistogram latency,
            AtomicLong completed, AtomicLong failed, CompletableFuture<Void> done) {
        long begin = System.nanoTime();
        if (begin >= deadline) {
            done.complete(null);
            return;
        }
        startSafely(operation, sequence.getAndIncrement()).whenComplete((ignored, failure) -> {
            if (failure == null) {
                latency.recordValue(Math.max(1, (System.nanoTime() - begin) / 1000));
                completed.incrementAndGet();
            } else {
                failed.incrementAndGet();
            }
            next(operation, sequence, deadline, latency, completed, failed, done);
        });
    }

    /**
     * Starts operations at {@code perSecond} for {@code duration}, at most {@code maxInFlight} at once (beyond that the
     * schedule waits, and the wait shows in the latency of every late operation).
     */
    static Result constantRate(String name, double perSecond, Duration duration, int maxInFlight, Operation operation) {
        ConcurrentHistogram latency = new ConcurrentHistogram(3);
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        Semaphore inFlight = new Semaphore(maxInFlight);
        long interval = (long) (1e9 / perSecond);
        long count = (long) (perSecond * duration.toNanos() / 1e9);
        long started = System.nanoTime();
        for (long i = 0; i < count; i++) {
            long intended = started + i * interval;
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            inFlight.acquireUninterruptibly();
            startSafely(operation, i).whenComplete((ignored, failure) -> {
                inFlight.release();
                if (failure == null) {
                    latency.recordValue(Math.max(1, (System.nanoTime() - intended) / 1000));
                    completed.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                }
            });
        }
        try {
            if (!inFlight.tryAcquire(maxInFlight, 60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + ": operations still in flight after a minute");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return finished(Result.of(name + String.format(" @%.0f/s", perSecond), completed.get(), failed.get(),
                (System.nanoTime() - started) / 1e9, latency));
    }

    private static CompletableFuture<?> startSafely(Operation operation, long sequence) {
        try {
            return operation.start(sequence);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
