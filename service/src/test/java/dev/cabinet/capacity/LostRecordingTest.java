package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
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

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Key;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An event's first writes may go out in the round of the write that records it ({@code
 * PlanExecutor.recordsWithWrites}), on the promise that deciding the event again over its own half-made writes gives
 * the same plan. Here every event of the capacity model's scenario in turn crashes its projector with the recording
 * write in flight and never made, while of the other writes of that round each subset lands; a second projector, as
 * after a rebalance, takes the redelivered event. The table must end as one clean application left it, item for item.
 */
@QuarkusTest
class LostRecordingTest {

    /** A round with more writes than this is tried with all of them landing and with none, not every subset. */
    private static final int SUBSETS_UP_TO = 6;

    @Inject
    CapacityModels models;

    @Test
    void anEventWhoseRecordingIsLostWithAnySubsetOfItsOtherWritesEndsAsIfAppliedOnce() {
        List<Scenario.Step> steps = Scenario.steps();
        List<Map<Key, Map<String, AttributeValue>>> tables = new ArrayList<>();
        ModelStore clean = new ModelStore();
        ModelProjection projection = models.projection(clean);
        long offset = CapacityModel.FIRST_OFFSET;
        List<ReceivedEvent> events = new ArrayList<>();
        tables.add(clean.items());
        for (Scenario.Step step : steps) {
            ReceivedEvent event = received(step, offset++);
            events.add(event);
            applyAndSettle(clean, projection, event);
            tables.add(clean.items());
        }

        Set<String> differing = new TreeSet<>();
        int crashes = 0;
        int sharedRounds = 0;
        for (int i = 0; i < events.size(); i++) {
            ReceivedEvent event = events.get(i);
            int others = crash(tables.get(i), event, n -> true).crashRoundWrites();
            if (others < 0) {
                continue;
            }
            crashes++;
            sharedRounds += others > 0 ? 1 : 0;
            List<IntPredicate> landings = new ArrayList<>();
            if (others <= SUBSETS_UP_TO) {
                for (int mask = 0; mask < 1 << others; mask++) {
                    int landed = mask;
                    landings.add(n -> (landed & 1 << n) != 0);
                }
            } else {
                landings.add(n -> true);
                landings.add(n -> false);
            }
            for (IntPredicate landing : landings) {
                ModelStore store = crash(tables.get(i), event, landing).store();
                applyAndSettle(store, models.projection(store), event);
                Map<Key, Map<String, AttributeValue>> expected = tables.get(i + 1);
                Map<Key, Map<String, AttributeValue>> actual = store.items();
                Set<Key> keys = new LinkedHashSet<>(expected.keySet());
                keys.addAll(actual.keySet());
                for (Key key : keys) {
                    if (expected.get(key) == null || !expected.get(key).equals(actual.get(key))) {
                        differing.add(event.type() + " (event " + i + "): " + key + " " + expected.get(key) + " -> "
                                + actual.get(key));
                    }
                }
            }
        }
        assertTrue(crashes > events.size() / 2, "most of the scenario's events record on a stream: " + crashes);
        assertTrue(sharedRounds > crashes / 2, "most send writes with their recording: " + sharedRounds);
        assertEquals(Set.of(), differing, "items a lost recording left otherwise than one clean application");
    }

    private record Crash(ModelStore store, int crashRoundWrites) {
    }

    /**
     * The event applied over the table by a projector that crashes at its recording, {@code landing} saying which of
     * the round's other writes land; {@code crashRoundWrites} is negative when the event records on no stream.
     */
    private Crash crash(Map<Key, Map<String, AttributeValue>> table, ReceivedEvent event, IntPredicate landing) {
        ModelStore store = new ModelStore(table);
        store.crashAtNextRecording(landing);
        boolean done = drive(store, models.projection(store).apply(event).subscribeAsCompletionStage());
        if (!store.crashed()) {
            assertTrue(done, event.type() + " is done when nothing crashed");
            return new Crash(store, -1);
        }
        assertFalse(done, event.type() + " is not done when its recording was lost");
        return new Crash(store, store.crashRoundWrites());
    }

    private static void applyAndSettle(ModelStore store, ModelProjection projection, ReceivedEvent event) {
        assertTrue(drive(store, projection.apply(event).subscribeAsCompletionStage()), event.type() + " is done");
        drive(store, stage(projection::check));
        drive(store, stage(projection::settle));
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

    private static ReceivedEvent received(Scenario.Step step, long offset) {
        return new ReceivedEvent(CapacityModel.eventId(offset), step.type().currentName(), step.data().aggregateId(),
                step.actor(), Instant.parse("2026-06-01T10:00:00Z"), step.data(),
                new LogPosition(step.type().topic(), 0, offset));
    }
}
