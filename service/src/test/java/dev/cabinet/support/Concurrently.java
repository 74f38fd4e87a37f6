package dev.cabinet.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Many requests in flight at once, as many clients would send them. A parallel stream runs as many at a time as the
 * machine has cores (two here), and each request mostly waits on the broker's acknowledgement, so a test sending
 * hundreds of commands that way spends its time waiting, one or two requests at a time.
 */
public final class Concurrently {

    /** Requests in flight at once: enough to keep the application busy on two cores, few enough to stay polite. */
    public static final int IN_FLIGHT = 16;

    private Concurrently() {
    }

    /** {@code call} applied to every item, {@link #IN_FLIGHT} at a time; the results in the items' order. */
    public static <T, R> List<R> map(List<T> items, Function<T, R> call) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(IN_FLIGHT, Math.max(1, items.size())));
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (T item : items) {
                futures.add(pool.submit(() -> call.apply(item)));
            }
            List<R> results = new ArrayList<>();
            for (Future<R> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
