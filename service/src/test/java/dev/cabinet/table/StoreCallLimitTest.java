package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;

/** A store call whose future never ends fails as a transient error, which the projector retries: nothing waits forever. */
class StoreCallLimitTest {

    @Test
    void aCallThatNeverEndsFailsAsATransientErrorAndCancelsItsFuture() {
        CompletableFuture<String> lost = new CompletableFuture<>();
        CompletableFuture<String> call = TableWriter.bounded(Uni.createFrom().completionStage(lost),
                Duration.ofMillis(50)).subscribeAsCompletionStage();

        CompletionException failure = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                call::join);
        assertTrue(TransientStoreErrors.isTransient(failure.getCause()), failure.getCause().toString());
        assertTrue(lost.isCancelled(), "the client's request is aborted, not left to hold a connection");
    }

    @Test
    void aCallThatEndsTakesItsTimerWithIt() {
        for (int call = 0; call < 1_000; call++) {
            assertEquals(call, TableWriter.bounded(Uni.createFrom().item(call), Duration.ofSeconds(15)).await()
                    .indefinitely());
        }
        assertEquals(0, TableWriter.callTimersQueued(), "timers of ended calls stay queued until they would fire");
    }

    @Test
    void aCallThatAnswersInTimeIsUntouched() {
        assertEquals("item", TableWriter.bounded(Uni.createFrom().item("item"), Duration.ofSeconds(5)).await()
                .indefinitely());
    }
}
