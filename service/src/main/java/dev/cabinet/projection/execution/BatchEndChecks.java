package dev.cabinet.projection.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.observability.ProjectionTracing;
import dev.cabinet.table.Key;
import dev.cabinet.table.StoreCallSource;
import io.smallrye.mutiny.Uni;

/**
 * The checks that only repair a race, made off the event's path: a copy check (did the source change while the holder
 * was written?) and an orphan check (was the owner deleted meanwhile?). Each must look after its event's writes, which
 * it still does; what it need not do is hold up its event. A check is made when the batch ends (the batch's reads go
 * out together), when the next event of its stream begins, or after {@link #LATEST} when no batch ends, whichever comes
 * first; the engine acknowledges a batch only after {@link #settled()}. A crash before a check is made redelivers its
 * event, whose redo makes it, as long as the event is still its stream's latest: a redelivery redoes only that one. So
 * the stream's next event is recorded only once the checks of the events before it have ended
 * ({@link #startWaitingOn}, which starts them with its reads), and a check that failed is recorded among that event's
 * own steps ({@link #waitingOn}), so that its redo makes it. Made twice, a check changes nothing: a refresh is guarded
 * by the copy's version and needs the holder, an orphan's delete finds nothing the second time.
 */
@ApplicationScoped
public class BatchEndChecks {

    /** How long a check waits at most when no batch ends (an operator's retry, a test that drives the executor). */
    static final Duration LATEST = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(BatchEndChecks.class);

    private final TransientRetries retries;
    private final ProjectionTracing tracing;
    /** The checks to make at the next batch's end, in the order their events deferred them (or failed). */
    private final List<Check> due = new ArrayList<>();
    /** Every check deferred and not yet made (due, being made, or failed), by the root of its event's stream. */
    private final Map<Key, Map<Check, Step>> waiting = new LinkedHashMap<>();
    /** The checks being made, each with its end (made or failed: it never fails). */
    private final Map<Check, CompletableFuture<Void>> making = new HashMap<>();
    private boolean flushQueued;

    BatchEndChecks(TransientRetries retries, ProjectionTracing tracing) {
        this.retries = retries;
        this.tracing = tracing;
    }

    /** A check deferred by an event: its stream's root, the step as a later event records it, and how to make it. */
    private record Check(Key root, String eventType, Step step, Supplier<Uni<?>> make) {
    }

    /**
     * Defers the check of an event of the stream whose root is {@code root} (null for an event without a stream, which
     * no later event can overtake) to the batch's end; {@code recorded} is the step a later event of the stream records
     * while it waits.
     */
    void defer(Key root, String eventType, Step recorded, Supplier<Uni<?>> make) {
        Check check = new Check(root, eventType, recorded, make);
        synchronized (this) {
            due.add(check);
            if (root != null) {
                waiting.computeIfAbsent(root, key -> new LinkedHashMap<>()).put(check, recorded);
            }
        }
        flushLater();
    }

    /**
     * Starts the checks of the stream's earlier events that wait for the batch's end: the stream's next event has
     * begun, and is recorded only once they are done (made, or failed), so that a crash after its recording cannot
     * leave one of them unmade. Started with that event's reads, they seldom make it wait longer. The answer never
     * fails.
     */
    synchronized CompletionStage<Void> startWaitingOn(Key root) {
        Map<Check, Step> checks = waiting.get(root);
        if (checks == null) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Void>> ends = new ArrayList<>();
        for (Check check : List.copyOf(checks.keySet())) {
            CompletableFuture<Void> end = making.get(check);
            if (end == null && due.remove(check)) {
                end = start(check);
            }
            if (end != null) {
                ends.add(end);
            }
        }
        return CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new));
    }

    /**
     * The checks of the stream's earlier events that failed and wait to be made again: a new event of the stream
     * records them among its own steps, so that a redo of it makes them should this instance stop first.
     */
    synchronized List<Step> waitingOn(Key root) {
        Map<Check, Step> checks = waiting.get(root);
        return checks == null ? List.of() : List.copyOf(checks.values());
    }

    /**
     * Makes every check deferred until now, each retried while the store fails transiently, and completes once they and
     * every check started before have ended. Never fails: a check that failed otherwise is logged, waits for the next
     * batch's end, and is recorded by the stream's next event meanwhile.
     */
    public CompletionStage<Void> settled() {
        List<CompletableFuture<Void>> ends;
        synchronized (this) {
            makeAll();
            ends = List.copyOf(making.values());
        }
        return CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new));
    }

    /** Whether no check waits and none is being made. */
    public synchronized boolean idle() {
        return due.isEmpty() && making.isEmpty();
    }

    /** Runs {@code flush} after {@link #LATEST}; the capacity model's store, which answers in rounds, runs none. */
    void later(Runnable flush) {
        CompletableFuture.delayedExecutor(LATEST.toMillis(), TimeUnit.MILLISECONDS).execute(flush);
    }

    private void flushLater() {
        boolean queue;
        synchronized (this) {
            queue = !flushQueued;
            flushQueued = true;
        }
        if (queue) {
            later(this::flushLate);
        }
    }

    private void flushLate() {
        synchronized (this) {
            flushQueued = false;
            makeAll();
        }
    }

    /** Starts every check due; under the lock, so that {@link #idle()} never sees a check between due and making. */
    private void makeAll() {
        List<Check> now = List.copyOf(due);
        due.clear();
        now.forEach(this::start);
    }

    /** Under the lock. */
    private CompletableFuture<Void> start(Check check) {
        CompletableFuture<Void> end = new CompletableFuture<>();
        making.put(check, end);
        tracing.detached(() -> StoreCallSource.of(check.eventType(), () -> retries.retrying(
                Uni.createFrom().deferred(check.make()), Long.MAX_VALUE))
                .subscribe().with(made -> ended(check, end, null), failure -> ended(check, end, failure)));
        return end;
    }

    private void ended(Check check, CompletableFuture<Void> end, Throwable failure) {
        synchronized (this) {
            making.remove(check);
            if (failure == null) {
                Map<Check, Step> checks = check.root() == null ? null : waiting.get(check.root());
                if (checks != null) {
                    checks.remove(check);
                    if (checks.isEmpty()) {
                        waiting.remove(check.root());
                    }
                }
            } else {
                LOG.errorf("Could not check %s after a %s event (made again when a batch ends): %s", check.step(),
                        check.eventType(), failure.toString());
                due.add(check);
            }
        }
        if (failure != null) {
            flushLater();
        }
        end.complete(null);
    }
}
