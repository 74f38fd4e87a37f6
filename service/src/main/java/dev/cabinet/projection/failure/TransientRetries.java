package dev.cabinet.projection.failure;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.shared.InFlight;
import dev.cabinet.table.TransientStoreErrors;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Uni;

/**
 * Retries a store call on transient errors with exponential backoff and jitter, and cuts the wait short when the store
 * answers again after an outage ({@link StoreRecovery}): a retry waiting out a backoff grown during the outage goes at
 * once, and so does one whose attempt was still in flight when the store came back and failed afterwards (it was sent
 * on a connection the outage had stalled, or waited for one behind them); such a retry also starts its backoff over.
 * One for the projector: applying events, releasing count tokens and the checks at a batch's end retry alike; sending a
 * dead letter retries with the same backoff but is not the store's, so its wait is not cut short by the store's
 * recovery. {@code cabinet.projection.retries.waiting} counts every retry that waits.
 */
@Singleton
public final class TransientRetries {

    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final StoreRecovery recovery;
    private final InFlight waits = new InFlight();

    @Inject
    TransientRetries(ProjectionConfig config, StoreRecovery recovery, MeterRegistry registry) {
        this(config.initialBackoff(), config.maxBackoff(), recovery);
        waits.register(registry, "cabinet.projection.retries.waiting", "failures whose retry waits out its "
                + "backoff (transient store errors, dead letters the broker did not take)", Tags.empty());
    }

    /** Retries with these backoffs, unmetered. */
    public TransientRetries(Duration initialBackoff, Duration maxBackoff, StoreRecovery recovery) {
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.recovery = recovery;
    }

    /** The call, retried on transient errors at most {@code attempts} times (then it fails with the last one). */
    public <T> Uni<T> retrying(Uni<T> call, long attempts) {
        return retrying(call, TransientStoreErrors::isTransient, true, attempts);
    }

    /**
     * The call, retried on the failures {@code retried} accepts at most {@code attempts} times, with the same backoff,
     * but not woken by the store's recovery: for a call that is not the store's (a broker's send, say), whose wait
     * would otherwise keep the store's recovery probe running.
     */
    public <T> Uni<T> retrying(Uni<T> call, Predicate<Throwable> retried, long attempts) {
        return retrying(call, retried, false, attempts);
    }

    private <T> Uni<T> retrying(Uni<T> call, Predicate<Throwable> retried, boolean storeCall, long attempts) {
        return Uni.createFrom().deferred(() -> {
            AtomicLong retries = new AtomicLong();
            AtomicLong backoffStep = new AtomicLong();
            AtomicLong seen = new AtomicLong();
            Uni<T> attempt = Uni.createFrom().deferred(() -> {
                seen.set(recovery.recoveries());
                return call;
            });
            return attempt.onFailure(retried).retry().when(errors -> errors.onItem()
                    .transformToUniAndConcatenate(error -> {
                        if (retries.incrementAndGet() > attempts) {
                            return Uni.createFrom().failure(error);
                        }
                        if (storeCall && recovery.recoveries() > seen.get()) {
                            // The store came back while this attempt was under way: its failure belongs to the
                            // outage, so the backoff grown during it does not apply any more.
                            backoffStep.set(0);
                            return Uni.createFrom().item(error);
                        }
                        Uni<Void> backedOff = Uni.createFrom().voidItem().onItem()
                                .delayIt().by(backoff(backoffStep.incrementAndGet()));
                        Uni<Void> wait = backedOff;
                        if (storeCall) {
                            wait = Uni.combine().any().of(backedOff, recovery.answersAgainSince(seen.get()));
                        }
                        return waits.track(wait).replaceWith(error);   // a null item would be dropped: no retry
                    }));
        });
    }

    /** The n-th wait: doubles from the initial backoff up to the maximum, with half of it as jitter either way. */
    Duration backoff(long step) {
        long initial = initialBackoff.toMillis();
        long doubled = initial << Math.min(step - 1, 20);
        long capped = Math.min(Math.max(doubled, initial), maxBackoff.toMillis());
        // At least a millisecond: a delay of none is refused (an initial backoff of 1 ms jittered down to 0).
        return Duration.ofMillis(Math.max(1, (long) (capped * (0.5 + ThreadLocalRandom.current().nextDouble()))));
    }
}
