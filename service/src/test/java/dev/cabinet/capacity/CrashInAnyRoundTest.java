package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Key;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every event of the capacity model's scenario, crashed in every store round it takes (its reads, its recording
 * write, its other writes, its batch's end) with each subset of that round's writes landing and the rest lost, then
 * redelivered to a second projector, as after a rebalance: the table must end as one clean application left it, item
 * for item. This holds the executor to its promises: a redo finishes what the recording wrote down, and an event whose
 * first writes went out with its recording ({@code Rounds.recordsWithWrites}) decides alike over its own
 * half-made writes ({@code WritePlan.decidesAlikeAfterWriting}).
 */
@QuarkusTest
class CrashInAnyRoundTest {

    /** A round with more writes than this is tried with all of them landing and with none, not every subset. */
    private static final int SUBSETS_UP_TO = 6;

    @Inject
    CapacityModels models;

    @Test
    void anEventCrashedInAnyRoundWithAnySubsetOfItsWritesEndsAsIfAppliedOnce() {
        List<ReceivedEvent> events = new ArrayList<>();
        long offset = CapacityModel.FIRST_OFFSET;
        for (Scenario.Step step : Scenario.steps()) {
            events.add(CapacityModel.received(step, offset++));
        }
        List<Map<Key, Map<String, AttributeValue>>> tables = new ArrayList<>();
        ModelStore clean = new ModelStore();
        ModelProjection projection = models.projection(clean);
        tables.add(clean.items());
        for (ReceivedEvent event : events) {
            assertTrue(applyAndSettle(clean, projection, event), event.type() + " is done");
            tables.add(clean.items());
        }

        Set<String> differing = new TreeSet<>();
        int crashes = 0;
        for (int i = 0; i < events.size(); i++) {
            ReceivedEvent event = events.get(i);
            for (int round = 1;; round++) {
                int writes = crash(tables.get(i), event, round, n -> true).crashRoundWrites();
                if (writes < 0) {
                    break;
                }
                for (IntPredicate landing : subsets(writes)) {
                    ModelStore store = crash(tables.get(i), event, round, landing).store();
                    crashes++;
                    assertTrue(applyAndSettle(store, models.projection(store), event), event.type() + " is done");
                    differing.addAll(differences(event.type() + " (event " + i + ", crashed in round " + round + ")",
                            tables.get(i + 1), store.items()));
                }
            }
        }
        assertTrue(crashes > 4 * events.size(), "crashes tried: " + crashes);
        assertEquals(Set.of(), differing, "items a crash and a redelivery left otherwise than one clean application");
    }

    private record Crash(ModelStore store, int crashRoundWrites) {
    }

    /**
     * The event applied over the table by a projector that crashes in the given round of its work (the event, then its
     * batch's end), {@code landing} saying which of the round's writes land; {@code crashRoundWrites} is negative when
     * the work took fewer rounds.
     */
    private Crash crash(Map<Key, Map<String, AttributeValue>> table, ReceivedEvent event, int round,
            IntPredicate landing) {
        ModelStore store = new ModelStore(table);
        store.crashInRound(round, landing);
        applyAndSettle(store, models.projection(store), event);
        return new Crash(store, store.crashed() ? store.crashRoundWrites() : -1);
    }

    /** Every subset of a round's writes, or all and none when there are many. */
    private static List<IntPredicate> subsets(int writes) {
        List<IntPredicate> landings = new ArrayList<>();
        if (writes > SUBSETS_UP_TO) {
            landings.add(n -> true);
            landings.add(n -> false);
            return landings;
        }
        for (int mask = 0; mask < 1 << writes; mask++) {
            int landed = mask;
            landings.add(n -> (landed & 1 << n) != 0);
        }
        return landings;
    }

    private static List<String> differences(String what, Map<Key, Map<String, AttributeValue>> expected,
            Map<Key, Map<String, AttributeValue>> actual) {
        Set<Key> keys = new LinkedHashSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        List<String> differences = new ArrayList<>();
        for (Key key : keys) {
            if (expected.get(key) == null || !expected.get(key).equals(actual.get(key))) {
                differences.add(what + ": " + key + " " + expected.get(key) + " -> " + actual.get(key));
            }
        }
        return differences;
    }

    /** Applies the event and ends its batch (its checks, then its counts' flags and releases); false on a crash. */
    private static boolean applyAndSettle(ModelStore store, ModelProjection projection, ReceivedEvent event) {
        return drive(store, projection.apply(event).subscribeAsCompletionStage())
                && drive(store, stage(projection::check))
                && drive(store, stage(projection::settle));
    }

    private static CompletableFuture<Void> stage(Supplier<CompletionStage<Void>> work) {
        return Uni.createFrom().completionStage(work).subscribeAsCompletionStage();
    }

    /** Answers the store's calls round by round until the work is done or waits for nothing the store will answer. */
    private static boolean drive(ModelStore store, CompletableFuture<Void> work) {
        while (!work.isDone()) {
            if (!store.round()) {
                return false;
            }
        }
        work.join();
        return true;
    }
}
