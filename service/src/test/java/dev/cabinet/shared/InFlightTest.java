package dev.cabinet.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

class InFlightTest {

    private final InFlight inFlight = new InFlight();

    @Test
    void countsWorkFromSubscriptionUntilItEndsHoweverItEnds() {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<String> third = new CompletableFuture<>();
        Uni<String> tracked = inFlight.track(Uni.createFrom().completionStage(first));
        assertEquals(0, inFlight.count(), "nothing runs before a subscription");

        tracked.subscribe().with(item -> { }, failure -> { });
        inFlight.track(Uni.createFrom().completionStage(second)).subscribe().with(item -> { }, failure -> { });
        Cancellable cancellable = inFlight.track(Uni.createFrom().completionStage(third)).subscribe()
                .with(item -> { }, failure -> { });
        assertEquals(3, inFlight.count());
        assertTrue(inFlight.oldestSeconds() >= 0);

        first.complete("done");
        second.completeExceptionally(new IllegalStateException("failed"));
        assertEquals(1, inFlight.count(), "an item and a failure both end the work");
        cancellable.cancel();
        assertEquals(0, inFlight.count(), "so does a cancellation");
        assertEquals(0.0, inFlight.oldestSeconds());
    }

    @Test
    void theGaugesReadTheCountAndTheOldestAge() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        inFlight.register(registry, "work.in_flight", "work", Tags.of("kind", "test"));
        inFlight.track(Uni.createFrom().completionStage(new CompletableFuture<String>())).subscribe()
                .with(item -> { }, failure -> { });

        assertEquals(1.0, registry.get("work.in_flight").tag("kind", "test").gauge().value());
        assertTrue(registry.get("work.in_flight.oldest").gauge().value() >= 0.0);
    }
}
