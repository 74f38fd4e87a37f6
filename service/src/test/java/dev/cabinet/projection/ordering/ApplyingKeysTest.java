package dev.cabinet.projection.ordering;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** The projector-wide bound on streams applying at once: granted in order, released permits passed on, none lost. */
class ApplyingKeysTest {

    @Test
    void beyondTheLimitAStreamWaitsForARelease() {
        ApplyingKeys streams = new ApplyingKeys(2);
        assertTrue(streams.acquire().toCompletableFuture().isDone());
        assertTrue(streams.acquire().toCompletableFuture().isDone());
        CompletableFuture<Void> third = streams.acquire().toCompletableFuture();
        CompletableFuture<Void> fourth = streams.acquire().toCompletableFuture();
        assertFalse(third.isDone());

        streams.release();
        assertTrue(third.isDone(), "the first to wait gets the first permit released");
        assertFalse(fourth.isDone());
        assertFalse(streams.acquire().isDone(), "both places taken, none freed");
    }

    @Test
    void aPermitIsNotLostOnAWaiterThatGaveUp() {
        ApplyingKeys streams = new ApplyingKeys(1);
        streams.acquire();
        CompletableFuture<Void> cancelled = streams.acquire().toCompletableFuture();
        CompletableFuture<Void> next = streams.acquire().toCompletableFuture();
        cancelled.cancel(false);

        streams.release();
        assertTrue(next.isDone(), "the cancelled waiter is passed over");
        streams.release();
        assertTrue(streams.acquire().toCompletableFuture().isDone(), "the place is free again");
        assertFalse(streams.acquire().isDone(), "and only the one place");
    }

    @Test
    void aStreamThatStopsWhileWaitingWithdrawsAndOneThatRanHandsItsPlaceOn() {
        ApplyingKeys streams = new ApplyingKeys(1);
        CompletableFuture<Void> running = streams.acquire();
        CompletableFuture<Void> stopped = streams.acquire();
        CompletableFuture<Void> next = streams.acquire();

        streams.release(stopped); // cancelled before its turn: it must not be granted the place later
        assertFalse(next.isDone());
        streams.release(running);
        assertTrue(next.isDone(), "the place goes past the withdrawn stream");
        assertFalse(stopped.isDone() && !stopped.isCancelled(), "the withdrawn stream was never granted a place");
        streams.release(next);
        assertTrue(streams.acquire().isDone(), "the place is free again");
        assertFalse(streams.acquire().isDone(), "and only the one place");
    }
}
