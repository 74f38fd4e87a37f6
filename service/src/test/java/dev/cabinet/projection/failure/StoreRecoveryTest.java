package dev.cabinet.projection.failure;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/** The wake-up of waiting retries, with a probe whose answer the test decides (up or down). */
class StoreRecoveryTest {

    private final AtomicBoolean up = new AtomicBoolean(false);
    private final AtomicInteger probes = new AtomicInteger();
    private final StoreRecovery recovery = new StoreRecovery(timeout -> {
        probes.incrementAndGet();
        return up.get() ? CompletableFuture.completedFuture("ACTIVE")
                : CompletableFuture.failedFuture(new IllegalStateException("down"));
    }, Duration.ofMillis(20));

    @Test
    void waitingRetriesWakeWhenTheStoreAnswersAgainEvenAfterAnotherWaiterGaveUp() {
        Cancellable gaveUp = recovery.answersAgainSince(recovery.recoveries()).subscribe().with(ignored -> { });
        CompletableFuture<Void> waiting = recovery.answersAgainSince(recovery.recoveries()).subscribeAsCompletionStage();
        await().until(() -> probes.get() >= 3);
        gaveUp.cancel();   // its backoff ended first
        assertFalse(waiting.isDone(), "a store that is down wakes nobody");
        up.set(true);
        await().atMost(Duration.ofSeconds(10)).until(waiting::isDone);
        assertFalse(waiting.isCompletedExceptionally());
    }

    @Test
    void aStoreThatAnswersWakesNobodyEarlyAndNothingIsProbedWhileNobodyWaits() {
        up.set(true);
        CompletableFuture<Void> waiting = recovery.answersAgainSince(recovery.recoveries()).subscribeAsCompletionStage();
        await().until(() -> probes.get() >= 3);
        assertFalse(waiting.isDone(), "a throttle or a single timeout keeps the retry's own backoff");
        waiting.cancel(false);
        await().until(() -> {
            int seen = probes.get();
            Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(100)).await().indefinitely();
            return probes.get() == seen;
        });
        assertTrue(probes.get() >= 3);
    }
}
