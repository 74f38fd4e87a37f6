package dev.cabinet.projection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.table.Key;
import dev.cabinet.table.StoreCallSource;
import io.smallrye.mutiny.Uni;

/**
 * The checks that only repair a race, made off the event's path: a copy check (did the source change while the holder
 * was written?) and an orphan check (was the owner deleted meanwhile?). Each must look after its event's writes, which
 * it still does; what it need not do is hold up its event and the next event of its stream. A check is made when the
 * batch ends (the batch's reads go out together), when the next event of its stream begins, or after {@link #LATEST}
 * when no batch ends, whichever comes first; the engine acknowledges a batch only after {@link #settled()}. A crash
 * before a check is made redelivers its event, but a redelivery redoes an event's recorded steps only while it is its
 * stream's latest; so every later event of the stream recorded while the check is not yet made writes it among its own
 * steps ({@link #waitingOn}), and a redo of that event makes it. Made twice, a check changes nothing: a refresh is
 * guarded by the copy's version and needs the holder, an orphan's delete finds nothing the second time.
 */
@ApplicationScoped
public class BatchEndChecks {

    /** How long a check waits at most when no batch ends (an operator's retry, a test that drives the executor). */
    static final Duration LATEST = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(BatchEndChecks.class);

    private final TransientRetries retries;
    private final ProjectionTracing tracing;
    /** The checks still to make, in the order their events deferred them. */
    private final List<Check> due = new ArrayList<>();
    /** Every check deferred and not yet made, by the root of its event's stream. */
    private final Map<Key, Map<Check, Step>> waiting = new LinkedHashMap<>();
    /** Checks being made, whoever started them: a batch settles only once every check started before is done. */
    private final Set<CompletableFuture<Void>> making = ConcurrentHashMap.newKeySet();
    private boolean flushQueued;

    BatchEndChecks(ProjectionConfig config, StoreRecovery recovery, ProjectionTracing tracing) {
        this.retries = new TransientRetries(config.initialBackoff(), config.maxBackoff(), recovery);
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
        boolean queue;
        synchronized (this) {
            due.add(check);
            if (root != null) {
                waiting.computeIfAbsent(root, key -> new LinkedHashMap<>()).put(check, recorded);
            }
            queue = !flushQueued;
            flushQueued = true;
        }
        if (queue) {
            later(this::flushLate);
        }
    }

    /** Runs {@code flush} after {@link #LATEST}; the capacity model's store, which answers in rounds, runs none. */
    void later(Runnable flush) {
        CompletableFuture.delayedExecutor(LATEST.toMillis(), TimeUnit.MILLISECONDS).execute(flush);
    }

    /** The checks of the stream's earlier events not made yet: a new event of the stream records them too. */
    synchronized List<Step> waitingOn(Key root) {
        Map<Check, Step> checks = waiting.get(root);
        return checks == null ? List.of() : List.copyOf(checks.values());
    }

    /**
     * Makes every check deferred until now, each retried while the store fails transiently, and completes once they and
     * every check started before are done; fails if one failed otherwise, so that its batch is not acknowledged.
     */
    public CompletionStage<Void> settled() {
        List<CompletableFuture<Void>> waitFor = new ArrayList<>(making);
        waitFor.add(makeAll());
        return CompletableFuture.allOf(waitFor.toArray(CompletableFuture[]::new));
    }

    /** Whether no check waits and none is being made. */
    public synchronized boolean idle() {
        return due.isEmpty() && making.isEmpty();
    }

    private void flushLate() {
        synchronized (this) {
            flushQueued = false;
        }
        makeAll().exceptionally(failure -> null);
    }

    /**
     * Starts the checks of the stream's earlier events now: its next event has begun, and each check still waiting when
     * that event is recorded adds to its root write. Started with the event's reads, most are made before it.
     */
    synchronized void startWaitingOn(Key root) {
        if (!waiting.containsKey(root)) {
            return;
        }
        List<Check> now = due.stream().filter(check -> root.equals(check.root())).toList();
        if (!now.isEmpty()) {
            due.removeAll(now);
            start(now);
        }
    }

    /** Starts every check due. */
    private synchronized CompletableFuture<Void> makeAll() {
        if (due.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<Check> now = new ArrayList<>(due);
        due.clear();
        return start(now);
    }

    /** Under the lock, so that {@link #idle()} never sees a check between due and making. */
    private CompletableFuture<Void> start(List<Check> now) {
        CompletableFuture<Void> all = CompletableFuture.allOf(now.stream().map(this::make)
                .toArray(CompletableFuture[]::new));
        making.add(all);
        all.whenComplete((nothing, failure) -> making.remove(all));
        return all;
    }

    private CompletableFuture<Void> make(Check check) {
        return tracing.detached(() -> StoreCallSource.of(check.eventType(), () -> retries.retrying(
                Uni.createFrom().deferred(check.make()), Long.MAX_VALUE))
                .replaceWithVoid()
                .invoke(() -> made(check))
                // Kept among the stream's waiting checks, it is recorded by the stream's next event.
                .onFailure().invoke(failure -> LOG.errorf("Could not check %s after a %s event: %s", check.step(),
                        check.eventType(), failure.toString()))
                .subscribeAsCompletionStage());
    }

    private synchronized void made(Check check) {
        Map<Check, Step> checks = check.root() == null ? null : waiting.get(check.root());
        if (checks != null) {
            checks.remove(check);
            if (checks.isEmpty()) {
                waiting.remove(check.root());
            }
        }
    }
}
