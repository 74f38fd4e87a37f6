package dev.cabinet.projection;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import dev.cabinet.table.TransientStoreErrors;
import io.smallrye.mutiny.Uni;

/**
 * Retries a store call on transient errors with exponential backoff and jitter, and cuts the wait short when the store
 * answers again after an outage ({@link StoreRecovery}): a retry waiting out a backoff grown during the outage goes at
 * once, and so does one whose attempt was still in flight when the store came back and failed afterwards (it was sent
 * on a connection the outage had stalled, or waited for one behind them); such a retry also starts its backoff over.
 * A retried call that has not ended after the stall limit is cancelled and started again ({@link #retrying}).
 */
final class TransientRetries {

    private static final Logger LOG = Logger.getLogger(TransientRetries.class);

    /**
     * The stall limit's timer, and the backoff's: a thread of its own rather than the shared scheduler that also
     * times the store client's calls, so that a call whose end is lost there is still noticed. Cancelled timers (one
     * per call that ends in time) are dropped at once.
     */
    private static final ScheduledThreadPoolExecutor TIMER = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "cabinet-projection-timer");
        thread.setDaemon(true);
        return thread;
    });

    static {
        TIMER.setRemoveOnCancelPolicy(true);
    }

    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final StoreRecovery recovery;
    private final Duration stallLimit;

    TransientRetries(Duration initialBackoff, Duration maxBackoff, StoreRecovery recovery, Duration stallLimit) {
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.recovery = recovery;
        this.stallLimit = stallLimit;
    }

    /**
     * The call, retried on transient errors at most {@code attempts} times (then it fails with the last one). The
     * whole of it, retries included, is cancelled and started again if it has not ended after the stall limit: every
     * store call already gives up after its own timeouts, so reaching the limit means an end that was lost (the
     * fault runs' stall: an event's application that never ended held its stream, then its batch, then its
     * consumer). Starting again is safe because every projector write is idempotent; during a long outage it only
     * restarts the backoff.
     */
    <T> Uni<T> retrying(Uni<T> call, long attempts) {
        return retrying(call, attempts, "a projector store call");
    }

    /** As {@link #retrying(Uni, long)}; {@code what} names the work in the warning when it is started again. */
    <T> Uni<T> retrying(Uni<T> call, long attempts, String what) {
        return restartedWhenStalled(retryingOnly(call, attempts), what);
    }

    private <T> Uni<T> restartedWhenStalled(Uni<T> work, String what) {
        return work.ifNoItem().after(stallLimit).on(TIMER).recoverWithUni(() -> {
            LOG.warnf("%s and its retries did not end within %d s; cancelled and started again", what,
                    stallLimit.toSeconds());
            return restartedWhenStalled(work, what);
        });
    }

    private <T> Uni<T> retryingOnly(Uni<T> call, long attempts) {
        return Uni.createFrom().deferred(() -> {
            AtomicLong retries = new AtomicLong();
            AtomicLong backoffStep = new AtomicLong();
            AtomicLong seen = new AtomicLong();
            Uni<T> attempt = Uni.createFrom().deferred(() -> {
                seen.set(recovery.recoveries());
                return call;
            });
            return attempt.onFailure(TransientStoreErrors::isTransient).retry().when(errors -> errors.onItem()
                    .transformToUniAndConcatenate(error -> {
                        if (retries.incrementAndGet() > attempts) {
                            return Uni.createFrom().failure(error);
                        }
                        if (recovery.recoveries() > seen.get()) {
                            // The store came back while this attempt was under way: its failure belongs to the
                            // outage, so the backoff grown during it does not apply any more.
                            backoffStep.set(0);
                            return Uni.createFrom().item(error);
                        }
                        Duration wait = backoff(backoffStep.incrementAndGet());
                        return Uni.combine().any().of(
                                Uni.createFrom().voidItem().onItem().delayIt().onExecutor(TIMER).by(wait),
                                recovery.answersAgainSince(seen.get()))
                                .replaceWith(error);   // a null item would be dropped: no retry at all
                    }));
        });
    }

    /** The n-th wait: doubles from the initial backoff up to the maximum, with half of it as jitter either way. */
    Duration backoff(long step) {
        long initial = initialBackoff.toMillis();
        long doubled = initial << Math.min(step - 1, 20);
        long capped = Math.min(Math.max(doubled, initial), maxBackoff.toMillis());
        return Duration.ofMillis((long) (capped * (0.5 + ThreadLocalRandom.current().nextDouble())));
    }
}
