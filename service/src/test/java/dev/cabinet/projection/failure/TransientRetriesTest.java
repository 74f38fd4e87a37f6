package dev.cabinet.projection.failure;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Retries of store calls through an outage, with a store the test freezes and thaws, and a backoff of an hour: a retry
 * that ends before the hour is over was cut short by the store's recovery, never by its own backoff.
 */
class TransientRetriesTest {

    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(20);

    private final AtomicBoolean up = new AtomicBoolean(false);
    private final AtomicInteger probes = new AtomicInteger();
    private final StoreRecovery recovery = new StoreRecovery(timeout -> {
        probes.incrementAndGet();
        return up.get() ? CompletableFuture.completedFuture("ACTIVE")
                : CompletableFuture.failedFuture(acquireTimeout());
    }, PROBE_INTERVAL);
    private final TransientRetries retries = new TransientRetries(HOUR, HOUR, recovery);

    @AfterEach
    void stopProbing() {
        recovery.stop();
    }

    @Test
    void aWriteThatFailedDuringTheOutageGoesAsSoonAsTheStoreAnswersAgainInsteadOfSleepingOutItsBackoff() {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> written = retries.retrying(write(attempts), Long.MAX_VALUE)
                .subscribeAsCompletionStage();
        await().until(() -> probes.get() >= 3);
        assertFalse(written.isDone(), "a frozen store accepts nothing");

        up.set(true);

        await("written once the store answers, not after the hour's backoff").atMost(Duration.ofSeconds(30))
                .until(written::isDone);
        assertEquals("written", written.join());
        assertEquals(2, attempts.get(), "one attempt in the outage, one after it");
    }

    /** The failures a caller names are retried with the same backoff; by default only a store's transient errors. */
    @Test
    void theFailuresRetriedAreTheCallersToName() {
        TransientRetries quick = new TransientRetries(Duration.ofMillis(1), Duration.ofMillis(2), recovery);
        AtomicInteger sends = new AtomicInteger();
        Uni<String> send = Uni.createFrom().deferred(() -> sends.incrementAndGet() < 3
                ? Uni.createFrom().failure(new IllegalStateException("the broker did not take it"))
                : Uni.createFrom().item("sent"));

        assertEquals("sent", quick.retrying(send, failure -> true, Long.MAX_VALUE).await()
                .atMost(Duration.ofSeconds(5)));
        assertEquals(3, sends.get(), "two refusals retried, then sent");
        sends.set(0);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> quick.retrying(send, Long.MAX_VALUE).await().atMost(Duration.ofSeconds(5)));
        assertEquals("the broker did not take it", refused.getMessage());
        assertEquals(1, sends.get(), "not a store's transient error: not retried by default");
    }

    /**
     * The race behind the slow recoveries: a batch's store call was sent (or waited for a connection) while the store
     * was frozen and failed only after the store was back, with the client's pool-acquire timeout. The probe had
     * already woken the retries that were waiting; this one must not start an hour's wait for a recovery that has
     * happened.
     */
    @Test
    void aCallThatWasInFlightWhenTheStoreCameBackAndFailedAfterwardsIsRetriedAtOnce() {
        AtomicInteger waiterAttempts = new AtomicInteger();
        CompletableFuture<String> waiter = retries.retrying(write(waiterAttempts), Long.MAX_VALUE)
                .subscribeAsCompletionStage();
        CompletableFuture<String> stalled = new CompletableFuture<>();
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> batch = retries.retrying(Uni.createFrom().deferred(() -> attempts.incrementAndGet() == 1
                ? Uni.createFrom().completionStage(stalled)
                : Uni.createFrom().item("written")), Long.MAX_VALUE).subscribeAsCompletionStage();
        await().until(() -> probes.get() >= 3 && attempts.get() == 1);

        up.set(true);
        await("the waiting retry woken by the probe").atMost(Duration.ofSeconds(30)).until(waiter::isDone);
        stalled.completeExceptionally(acquireTimeout());

        await("the stalled call retried once the store is back, not after the hour's backoff")
                .atMost(Duration.ofSeconds(30)).until(batch::isDone);
        assertEquals("written", batch.join());
        assertEquals(2, attempts.get());
    }

    @Test
    void retriesWhoseAttemptsWereAllInFlightDuringTheRecoveryAreWokenByTheNextProbe() {
        CompletableFuture<String> stalled = new CompletableFuture<>();
        AtomicInteger attempts = new AtomicInteger();
        // Nobody waits while the store is down except a short-lived waiter that makes the probe see it down.
        CompletableFuture<Void> probeSawItDown = recovery.answersAgainSince(recovery.recoveries())
                .subscribeAsCompletionStage();
        await().until(() -> probes.get() >= 2);
        probeSawItDown.cancel(false);
        CompletableFuture<String> batch = retries.retrying(Uni.createFrom().deferred(() -> {
            int attempt = attempts.incrementAndGet();
            if (attempt == 1) {
                return Uni.createFrom().completionStage(stalled);
            }
            return up.get() ? Uni.createFrom().item("written") : Uni.createFrom().failure(acquireTimeout());
        }), Long.MAX_VALUE).subscribeAsCompletionStage();
        await().until(() -> attempts.get() == 1);

        up.set(true);
        stalled.completeExceptionally(acquireTimeout());

        await("woken by the first probe that finds the store back").atMost(Duration.ofSeconds(30))
                .until(batch::isDone);
        assertEquals("written", batch.join());
    }

    private Uni<String> write(AtomicInteger attempts) {
        return Uni.createFrom().deferred(() -> {
            attempts.incrementAndGet();
            return up.get() ? Uni.createFrom().item("written") : Uni.createFrom().failure(acquireTimeout());
        });
    }

    /** What the SDK's Netty client answers when every pooled connection is stuck on a frozen store. */
    private static SdkClientException acquireTimeout() {
        return SdkClientException.create("Unable to execute HTTP request: Acquire operation took longer than the "
                + "configured maximum time.", new TimeoutException("Acquire operation took longer than 2000 milliseconds."));
    }
}
