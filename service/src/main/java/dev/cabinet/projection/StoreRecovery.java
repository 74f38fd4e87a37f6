package dev.cabinet.projection;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cabinet.table.TableProbe;
import io.smallrye.mutiny.Uni;

/**
 * Wakes retries that wait out a long backoff as soon as the store answers again: while any retry waits, one probe
 * (DescribeTable) runs every {@code cabinet.projection.probe-interval}; when a probe succeeds after one failed, every
 * waiting retry goes at once. A store that is down sees one probe per interval however many retries wait, and a store
 * that answers (a throttle, a single timeout) wakes nobody early: the retries keep their backoff.
 */
@ApplicationScoped
public class StoreRecovery {

    private final Supplier<CompletionStage<?>> probe;
    private final Duration interval;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicBoolean probing = new AtomicBoolean();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cabinet-store-probe");
        thread.setDaemon(true);
        return thread;
    });
    /** Completed (and replaced) when a probe succeeds after a failed one; only the probe thread swaps it. */
    private volatile CompletableFuture<Void> answeredAgain = new CompletableFuture<>();
    /** Whether the last probe failed; read and written on the probe thread only. */
    private boolean down;

    @Inject
    StoreRecovery(TableProbe probe, ProjectionConfig config) {
        this(probe::call, config.probeInterval());
    }

    /** {@code probe} is one cheap call to the store; it fails (or does not answer in four intervals) when it is down. */
    StoreRecovery(Supplier<CompletionStage<?>> probe, Duration interval) {
        this.probe = probe;
        this.interval = interval;
    }

    /**
     * Completes when the store answers again after a probe found it down; a caller combines it with its backoff and
     * takes whichever comes first (cancelling this one stops counting it as waiting).
     */
    public Uni<Void> answersAgain() {
        return Uni.createFrom().deferred(() -> {
            CompletableFuture<Void> signal = answeredAgain;
            waiting.incrementAndGet();
            if (probing.compareAndSet(false, true)) {
                timer.schedule(this::probeOnce, interval.toMillis(), TimeUnit.MILLISECONDS);
            }
            // A copy per waiter: a waiter whose backoff ends first cancels its copy, never the signal others share.
            return Uni.createFrom().completionStage(signal::copy);
        }).onTermination().invoke(waiting::decrementAndGet);
    }

    private void probeOnce() {
        if (waiting.get() == 0) {
            down = false;
            probing.set(false);
            if (waiting.get() == 0 || !probing.compareAndSet(false, true)) {
                return; // nobody waits, or a new waiter started probing again
            }
        }
        CompletionStage<?> call;
        try {
            call = probe.get();
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.toCompletableFuture().orTimeout(interval.toMillis() * 4, TimeUnit.MILLISECONDS)
                .whenComplete((answer, error) -> timer.execute(() -> {
                    if (error != null) {
                        down = true;
                    } else if (down) {
                        down = false;
                        CompletableFuture<Void> woken = answeredAgain;
                        answeredAgain = new CompletableFuture<>();
                        woken.complete(null);
                    }
                    timer.schedule(this::probeOnce, interval.toMillis(), TimeUnit.MILLISECONDS);
                }));
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
