package dev.cabinet.capacity;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Runs the {@link Scenario} through the real projectors and executor over the {@link ModelStore}, one event at a time
 * (as at a low rate), and prices each event: its store calls by operation, its sequential rounds, the write and read
 * units of the table and the index writes, and the count tokens released after it (off the event's path, at the end
 * of its batch). Events of a type are summed up in {@link EventCost}; a fan-out's cost per copy is the difference
 * between its two runs divided by the copies added between them.
 */
final class CapacityModel {

    /** What one applied event cost. */
    record Applied(String type, Map<String, Integer> calls, int rounds, int writeUnits, int indexWriteUnits,
            double readUnits, int largestWrite, Map<String, Integer> settledCalls, int settledWriteUnits,
            double settledReadUnits, int tableWriteUnits, int minimumWriteUnits, int kafkaBytes,
            Map<String, Integer> writeUnitsByItemType, int reportedWriteUnits, double reportedReadUnits) {

        int callCount() {
            return calls.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    /**
     * The representative (first) event of each type, the fan-outs' cost per copy, and the most calls and rounds any
     * one event of a type took in the scenario (a subfolder's creation takes more than a top folder's), on its path and
     * settled after it.
     */
    record Result(Map<String, Applied> byType, Map<String, Applied> secondRuns,
            Map<String, Map<String, AttributeValue>> largestItems, Map<String, Integer> mostCalls,
            Map<String, Integer> mostRounds, Map<String, Integer> mostSettledCalls, Set<String> rejected) {
    }

    /** The types whose events reach every copy of a name: their later events cost more with each copy made meanwhile. */
    static final List<String> FAN_OUTS = List.of("cabinet.user.profile-updated.v1", "cabinet.folder.renamed.v1");

    /** The offsets the model's events sit at: a log a million records in, so that versions are as long as live ones. */
    static final long FIRST_OFFSET = 1_000_000;

    private final ModelStore store;
    private final ModelProjection projection;
    private final ObjectMapper json;

    CapacityModel(ModelStore store, ModelProjection projection, ObjectMapper json) {
        this.store = store;
        this.projection = projection;
        this.json = json;
    }

    Result run() {
        return run(Scenario.steps());
    }

    /** The figures for these steps, applied in order. */
    Result run(List<Scenario.Step> steps) {
        Set<String> rejected = new TreeSet<>();
        Map<String, Applied> first = new LinkedHashMap<>();
        Map<String, Applied> second = new LinkedHashMap<>();
        Map<String, Map<String, AttributeValue>> largest = new TreeMap<>();
        Map<String, Integer> mostCalls = new TreeMap<>();
        Map<String, Integer> mostRounds = new TreeMap<>();
        Map<String, Integer> mostSettledCalls = new TreeMap<>();
        long offset = FIRST_OFFSET;
        for (Scenario.Step step : steps) {
            long at = offset++;
            Applied applied = apply(step, at);
            if (Optional.ofNullable(store.items().get(KeyPlan.EVENT_OUTCOME.key(eventId(at))))
                    .map(outcome -> "rejected".equals(Items.string(outcome, Attributes.STATUS))).orElse(false)) {
                rejected.add(applied.type());
            }
            if (!FAN_OUTS.contains(applied.type()) || !first.containsKey(applied.type())) {
                mostCalls.merge(applied.type(), applied.callCount(), Math::max);
                mostRounds.merge(applied.type(), applied.rounds(), Math::max);
                mostSettledCalls.merge(applied.type(), applied.settledCalls().values().stream()
                        .mapToInt(Integer::intValue).sum(), Math::max);
            }
            if (!first.containsKey(applied.type())) {
                first.put(applied.type(), applied);
            } else if (!second.containsKey(applied.type())) {
                second.put(applied.type(), applied);
            }
            store.items().forEach((key, item) -> KeyPlan.typeOf(key).ifPresent(type -> largest.merge(type.name(), item,
                    (was, now) -> ItemSizes.of(now) > ItemSizes.of(was) ? now : was)));
        }
        return new Result(first, second, largest, mostCalls, mostRounds, mostSettledCalls, rejected);
    }

    private Applied apply(Scenario.Step step, long offset) {
        String type = step.type().currentName();
        ReceivedEvent event = received(step, offset);
        store.clearCalls();
        int rounds = drive(projection.apply(event));
        List<ModelStore.Call> onPath = store.calls();
        trace(type, rounds, onPath);
        store.clearCalls();
        drive(Uni.createFrom().completionStage(projection::check));
        List<ModelStore.Call> checks = store.calls();
        store.clearCalls();
        drive(Uni.createFrom().completionStage(projection::settle));
        List<ModelStore.Call> releases = new ArrayList<>(checks);
        releases.addAll(store.calls());

        Map<String, Integer> calls = new TreeMap<>();
        int writeUnits = 0;
        int indexUnits = 0;
        double readUnits = 0;
        int largestWrite = 0;
        int reported = 0;
        double reportedReads = 0;
        Map<String, Integer> byItemType = new TreeMap<>();
        Map<String, Integer> settledCalls = new TreeMap<>();
        int settledWrites = 0;
        double settledReads = 0;
        for (ModelStore.Call call : releases) {
            if (call.writeUnits() > 0) {
                byItemType.merge(itemTypeOf(call), call.writeUnits(), Integer::sum);
            }
            settledCalls.merge(call.operation(), 1, Integer::sum);
            settledWrites += call.writeUnits() + call.indexWriteUnits();
            settledReads += call.readUnits();
        }
        // The least the event could write: each item it changes written once (its largest write of it).
        Map<String, Integer> onceEach = new TreeMap<>();
        int tableWrites = 0;
        for (List<ModelStore.Call> phase : List.of(onPath, releases)) {
            for (ModelStore.Call call : phase) {
                if (call.writeUnits() > 0) {
                    onceEach.merge(call.key(), call.writeUnits(), Math::max);
                    tableWrites += call.writeUnits();
                }
            }
        }
        int minimum = onceEach.values().stream().mapToInt(Integer::intValue).sum();
        // The checks' calls are the event's, as the meter counts them; the flags and releases are the batch's.
        for (ModelStore.Call call : checks) {
            reported += call.conditionFailed() ? 0 : call.writeUnits();
            reportedReads += call.reportedReadUnits();
        }
        for (ModelStore.Call call : onPath) {
            if (call.writeUnits() > 0 && !call.operation().startsWith("Batch")) {
                byItemType.merge(itemTypeOf(call), call.writeUnits(), Integer::sum);
            }
            calls.merge(call.operation(), 1, Integer::sum);
            writeUnits += call.writeUnits();
            indexUnits += call.indexWriteUnits();
            readUnits += call.readUnits();
            largestWrite = Math.max(largestWrite, call.bytesWritten());
            // what the store reports back: a write whose condition failed answers with an error, not its units
            reported += call.conditionFailed() ? 0 : call.writeUnits();
            reportedReads += call.reportedReadUnits();
        }
        return new Applied(type, calls, rounds, writeUnits, indexUnits, readUnits, largestWrite, settledCalls,
                settledWrites, settledReads, tableWrites, minimum,
                kafkaBytes(step, event), byItemType, reported,
                reportedReads);
    }

    /**
     * With {@code -Dcabinet.capacity.trace=true}, prints each event's calls by round: where a round goes, for whoever
     * works on the executor's phases.
     */
    private static void trace(String type, int rounds, List<ModelStore.Call> calls) {
        if (Boolean.getBoolean("cabinet.capacity.trace")) {
            System.out.println("trace: " + type + ", " + rounds + " rounds");
            calls.forEach(call -> System.out.println("trace:   round " + call.round() + " " + call.operation() + " "
                    + call.key() + (call.conditionFailed() ? " (refused)" : "")));
        }
    }

    private static String itemTypeOf(ModelStore.Call call) {
        String[] parts = call.key().split(" / ", 2);
        return KeyPlan.typeOf(new Key(parts[0], parts[1])).map(ItemType::name).orElse("?");
    }

    /** Answers the store's calls round by round until the work is done; returns the rounds it took. */
    private int drive(Uni<Void> work) {
        CompletableFuture<Void> done = work.subscribeAsCompletionStage();
        int rounds = 0;
        while (!done.isDone()) {
            if (!store.round()) {
                throw new IllegalStateException("the work waits for something other than the store");
            }
            rounds++;
        }
        done.join();
        return rounds;
    }

    /**
     * The record's size in the log: its key, its JSON data and the CloudEvents headers (names and values) Cabinet
     * writes, as the broker stores them (before compression, which the producer does not use).
     */
    private int kafkaBytes(Scenario.Step step, ReceivedEvent event) {
        try {
            int value = json.writeValueAsBytes(step.data()).length;
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("ce_specversion", "1.0");
            headers.put("ce_id", event.id());
            headers.put("ce_source", "/cabinet");
            headers.put("ce_type", event.type());
            headers.put("ce_time", "2026-06-01T10:00:00.000Z");
            headers.put("ce_subject", event.subject());
            headers.put("ce_actor", event.actor());
            headers.put("content-type", "application/json");
            int headerBytes = headers.entrySet().stream().mapToInt(h -> utf8(h.getKey()) + utf8(h.getValue())).sum();
            return utf8(step.data().aggregateId()) + value + headerBytes;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The step as the projector receives it at that offset of the log, under its partition's first owner epoch as the
     * engine applies it: the counters carry the epoch attribute that production's do.
     */
    static ReceivedEvent received(Scenario.Step step, long offset) {
        return new ReceivedEvent(eventId(offset), step.type().currentName(), step.data().aggregateId(), step.actor(),
                Instant.parse("2026-06-01T10:00:00Z"), step.data(), new LogPosition(step.type().topic(), 0, offset))
                .underEpoch(1);
    }

    private static String eventId(long offset) {
        String digits = Long.toString(offset, 32).toUpperCase();
        return "01M8YE" + "0".repeat(20 - digits.length()) + digits;
    }

    private static int utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
