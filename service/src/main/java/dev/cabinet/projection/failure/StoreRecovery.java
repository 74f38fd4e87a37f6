package dev.cabinet.projection.failure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.table.TableProbe;
import io.smallrye.mutiny.Uni;

/**
 * Wakes retries that wait out a long backoff as soon as the store answers again: while any retry waits, a probe
 * (DescribeTable, given up after four intervals) goes out every {@code cabinet.projection.probe-interval}, whether or not
 * the previous one has answered, so a probe is already queued at the store when it resumes; when a probe succeeds after
 * one failed, every waiting retry goes at once, and {@link #recoveries()} counts it so that a retry whose attempt was
 * still in flight then does not start a long wait afterwards. A store that is down sees one probe per interval however
 * many retries wait, and a store that answers (a throttle, a single timeout) wakes nobody early: the retries keep their
 * backoff.
 */
@ApplicationScoped
public class StoreRecovery {

    private final Function<Duration, CompletionStage<?>> probe;
    private final Duration interval;
    private final Duration probeTimeout;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicBoolean probing = new AtomicBoolean();
    private final AtomicLong recoveries = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cabinet-store-probe");
        thread.setDaemon(true);
        return thread;
    });
    /** Completed (and replaced) when a probe succeeds after a failed one; only the probe thread swaps it. */
    private volatile CompletableFuture<Void> answeredAgain = new CompletableFuture<>();
    /**
     * Whether the newest probe that has answered found the store down; probe thread only. It is kept while nobody
     * waits: retries whose attempts were all in flight when the store came back start probing again afterwards, and
     * the first probe that answers then is still a recovery that wakes them.
     */
    private boolean down;
    /** The number of the last probe sent and of the newest one whose outcome counted; probe thread only. */
    private long sent;
    private long newestOutcome;

    @Inject
    StoreRecovery(TableProbe probe, ProjectionConfig config) {
        this(probe::call, config.probeInterval());
    }

    /**
     * {@code probe} is one cheap call to the store that gives up after the timeout it is given (four intervals); it
     * fails when the store is down.
     */
    StoreRecovery(Function<Duration, CompletionStage<?>> probe, Duration interval) {
        this.probe = probe;
        this.interval = interval;
        this.probeTimeout = interval.multipliedBy(4);
    }

    /**
     * How many times the store has answered again after a probe found it down. A retry reads it when its attempt
     * begins and hands it to {@link #answersAgainSince(long)} if the attempt fails.
     */
    public long recoveries() {
        return recoveries.get();
    }

    /**
     * Completes at once if the store has answered again since {@code seen} (a value of {@link #recoveries()}), and
     * otherwise when it answers again after a probe found it down; a caller combines it with its backoff and takes
     * whichever comes first (cancelling this one stops counting it as waiting).
     */
    public Uni<Void> answersAgainSince(long seen) {
        return Uni.createFrom().deferred(() -> {
            // The signal first, then the count: the probe thread counts a recovery before it swaps the signal, so a
            // waiter that reads the new signal also sees the new count.
            CompletableFuture<Void> signal = answeredAgain;
            if (recoveries.get() > seen) {
                return Uni.createFrom().voidItem();
            }
            waiting.incrementAndGet();
            if (probing.compareAndSet(false, true)) {
                timer.schedule(this::probeOnce, interval.toMillis(), TimeUnit.MILLISECONDS);
            }
            // A copy per waiter: a waiter whose backoff ends first cancels its copy, never the signal others share.
            return Uni.createFrom().completionStage(signal::copy)
                    .onTermination().invoke(waiting::decrementAndGet);
        });
    }

    private void probeOnce() {
        if (waiting.get() == 0) {
            probing.set(false);
            if (waiting.get() == 0 || !probing.compareAndSet(false, true)) {
                return; // nobody waits, or a new waiter started probing again
            }
        }
        long number = ++sent;
        CompletionStage<?> call;
        try {
            call = probe.apply(probeTimeout);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        // The client gives up after probeTimeout; this bound only covers a call that never ends at all.
        call.toCompletableFuture().orTimeout(probeTimeout.plus(interval).toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((answer, error) -> timer.execute(() -> outcome(number, error == null)));
        timer.schedule(this::probeOnce, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Probes overlap: an older probe's late timeout says nothing about a store a newer probe found answering. */
    private void outcome(long number, boolean answered) {
        if (number < newestOutcome) {
            return;
        }
        newestOutcome = number;
        if (!answered) {
            down = true;
        } else if (down) {
            down = false;
            recoveries.incrementAndGet();
            CompletableFuture<Void> woken = answeredAgain;
            answeredAgain = new CompletableFuture<>();
            woken.complete(null);
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
