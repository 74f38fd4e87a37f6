package dev.cabinet.projection.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import dev.cabinet.projection.observability.BatchesInFlight;

class BatchSequenceTest {

    private static final TopicPartition P = new TopicPartition("cabinet.users", 1);
    private static final TopicPartition Q = new TopicPartition("cabinet.users", 2);

    private final List<String> finished = new ArrayList<>();

    private CompletableFuture<Void> add(BatchSequence sequence, CompletableFuture<Void> applied, String name) {
        return add(sequence, applied, 1, name);
    }

    private CompletableFuture<Void> add(BatchSequence sequence, CompletableFuture<Void> applied, int events,
            String name) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            records.add(new ConsumerRecord<>(P.topic(), P.partition(), i, "k", new byte[0]));
        }
        return sequence.add(sequence.admit(new ConsumerRecords<>(Map.of(P, records), Map.of())).orElseThrow(), applied,
                () -> {
                    finished.add(name);
                    return CompletableFuture.completedFuture(null);
                });
    }

    /** The lag and the readiness check see each partition's oldest unfinished batch, and only unfinished ones. */
    @Test
    void eachPartitionsOldestBatchInFlightIsKnownUntilItFinishes() {
        BatchSequence sequence = new BatchSequence(10);
        CompletableFuture<Void> first = new CompletableFuture<>();
        sequence.add(sequence.admit(new ConsumerRecords<>(Map.of(P, List.of(record(P, 0, 1_000), record(P, 1, 900)),
                Q, List.of(record(Q, 0, 2_000))), Map.of())).orElseThrow(), first,
                () -> CompletableFuture.completedFuture(null));
        CompletableFuture<Void> second = new CompletableFuture<>();
        sequence.add(sequence.admit(new ConsumerRecords<>(Map.of(P, List.of(record(P, 2, 5_000))), Map.of()))
                .orElseThrow(), second, () -> CompletableFuture.completedFuture(null));

        Map<TopicPartition, BatchesInFlight.Batch> oldest = new LinkedHashMap<>();
        sequence.oldestByPartition(oldest);
        assertEquals(900, oldest.get(P).oldestEvent().toEpochMilli(), "the first batch's oldest event");
        assertEquals(2_000, oldest.get(Q).oldestEvent().toEpochMilli());

        first.complete(null);
        oldest.clear();
        sequence.oldestByPartition(oldest);
        assertEquals(Map.of(P, 5_000L), Map.of(P, oldest.get(P).oldestEvent().toEpochMilli()), "only the second");
        assertFalse(oldest.containsKey(Q));
        second.complete(null);
        oldest.clear();
        sequence.oldestByPartition(oldest);
        assertTrue(oldest.isEmpty(), "none in flight");
    }

    /**
     * A failed batch's events are not applied: it stays the partition's oldest in flight (the lag grows, readiness
     * reports it stuck) until the partition is handed over or assigned again.
     */
    @Test
    void aFailedBatchStaysInFlightUntilItsPartitionMovesOn() {
        BatchSequence sequence = new BatchSequence(10);
        CompletableFuture<Void> applied = new CompletableFuture<>();
        CompletableFuture<Void> answer = sequence.add(sequence.admit(new ConsumerRecords<>(Map.of(P,
                List.of(record(P, 0, 1_000))), Map.of())).orElseThrow(), applied,
                () -> CompletableFuture.completedFuture(null));
        applied.completeExceptionally(new IllegalStateException("the store refused"));
        assertTrue(answer.isCompletedExceptionally());

        Map<TopicPartition, BatchesInFlight.Batch> oldest = new LinkedHashMap<>();
        sequence.oldestByPartition(oldest);
        assertEquals(1_000, oldest.get(P).oldestEvent().toEpochMilli(), "still in flight: not applied");
        assertTrue(sequence.handOver(List.of(P)).isDone(), "a handover does not wait for it");
        oldest.clear();
        sequence.oldestByPartition(oldest);
        assertTrue(oldest.isEmpty(), "handed over: the next owner's now");
    }

    /**
     * A batch failing after its partition was handed over (a failure fails every later batch too) is not reported for
     * it; one partition of a failed batch moving on leaves the batch reported for the others.
     */
    @Test
    void aFailedBatchIsReportedOnlyForThePartitionsStillHere() {
        BatchSequence sequence = new BatchSequence(10);
        CompletableFuture<Void> applied = new CompletableFuture<>();
        sequence.add(sequence.admit(new ConsumerRecords<>(Map.of(P, List.of(record(P, 0, 1_000)),
                Q, List.of(record(Q, 0, 2_000))), Map.of())).orElseThrow(), applied,
                () -> CompletableFuture.completedFuture(null));
        CompletableFuture<Void> handedOver = sequence.handOver(List.of(P));
        applied.completeExceptionally(new IllegalStateException("the store refused"));
        assertTrue(handedOver.isDone());

        Map<TopicPartition, BatchesInFlight.Batch> oldest = new LinkedHashMap<>();
        sequence.oldestByPartition(oldest);
        assertEquals(List.of(Q), List.copyOf(oldest.keySet()), "only the partition still here");
        sequence.assigned(List.of(Q));
        oldest.clear();
        sequence.oldestByPartition(oldest);
        assertTrue(oldest.isEmpty(), "assigned again: its records are fetched again");
    }

    private static ConsumerRecord<String, byte[]> record(TopicPartition partition, long offset, long timestamp) {
        return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, timestamp,
                TimestampType.CREATE_TIME, 0, 0, "k", new byte[0],
                new RecordHeaders(), Optional.empty());
    }

    @Test
    void aHandoverWaitsForTheBatchesOfThePartitionAndThenLeavesItsRecordsAlone() {
        BatchSequence sequence = new BatchSequence(10);
        CompletableFuture<Void> applied = new CompletableFuture<>();
        sequence.add(sequence.admit(batch(P, Q)).orElseThrow(), applied, () -> CompletableFuture.completedFuture(null));

        CompletableFuture<Void> handedOver = sequence.handOver(List.of(P));
        assertFalse(handedOver.isDone(), "the batch of the partition is still in flight");
        assertTrue(new BatchSequence(10).handOver(List.of(P)).isDone(), "a sibling consumer has no batch to wait for");
        applied.complete(null);
        assertTrue(handedOver.isDone());

        assertEquals(List.of(Q), List.copyOf(sequence.admit(batch(P, Q)).orElseThrow().records().partitions()),
                "the partition handed over is left out, the other kept");
        assertTrue(sequence.admit(batch(P)).isEmpty());
        sequence.assigned(List.of(P));
        assertTrue(sequence.admit(batch(P)).isPresent(), "assigned again: applied");
    }

    private static ConsumerRecords<String, byte[]> batch(TopicPartition... partitions) {
        Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> records = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            records.put(partition, List.of(new ConsumerRecord<>(partition.topic(), partition.partition(), 0, "k",
                    new byte[0])));
        }
        return new ConsumerRecords<>(records, Map.of());
    }

    @Test
    void aLaterBatchAppliedFirstFinishesOnlyAfterTheEarlierOne() {
        BatchSequence sequence = new BatchSequence(4);
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        CompletableFuture<Void> firstDone = add(sequence, first, "first");
        CompletableFuture<Void> secondDone = add(sequence, second, "second");

        second.complete(null);
        assertFalse(secondDone.isDone(), "its progress and offsets wait for the earlier batch");
        assertEquals(List.of(), finished);

        first.complete(null);
        assertTrue(firstDone.isDone());
        assertTrue(secondDone.isDone());
        assertEquals(List.of("first", "second"), finished);
    }

    @Test
    void theConsumerFetchesTheNextBatchWhileFewerThanTheLimitOfEventsAreInFlight() {
        BatchSequence sequence = new BatchSequence(2);
        CompletableFuture<Void> first = new CompletableFuture<>();
        add(sequence, first, "first");
        assertTrue(sequence.room().toCompletableFuture().isDone(), "one in flight: the next may start");
        CompletableFuture<Void> second = new CompletableFuture<>();
        add(sequence, second, "second");
        CompletionStage<Void> room = sequence.room();
        assertFalse(room.toCompletableFuture().isDone(), "two events in flight: the consumer waits");
        second.complete(null);
        assertFalse(room.toCompletableFuture().isDone(), "the later one applied is not finished before the first");
        first.complete(null);
        assertTrue(room.toCompletableFuture().isDone());
        assertEquals(0, sequence.inFlight());
    }

    @Test
    void aFailedBatchFinishesNothingAfterItAndRoomStillOpens() {
        BatchSequence sequence = new BatchSequence(1);
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> firstDone = add(sequence, first, "first");
        CompletionStage<Void> room = sequence.room();
        CompletableFuture<Void> secondDone = add(sequence, CompletableFuture.completedFuture(null), "second");
        first.completeExceptionally(new IllegalStateException("boom"));
        assertTrue(firstDone.isCompletedExceptionally());
        assertTrue(secondDone.isCompletedExceptionally(), "nothing is committed past a batch that failed");
        assertEquals(List.of(), finished);
        assertTrue(room.toCompletableFuture().isDone() && !room.toCompletableFuture().isCompletedExceptionally());
    }

    @Test
    void smallBatchesAreCountedByTheirEventsNotAsBatches() {
        BatchSequence sequence = new BatchSequence(500);
        List<CompletableFuture<Void>> applied = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            CompletableFuture<Void> batch = new CompletableFuture<>();
            applied.add(batch);
            add(sequence, batch, 2, "batch " + i);
            assertTrue(sequence.room().toCompletableFuture().isDone(), "a hundred batches of two events fit in 500");
        }
        assertEquals(200, sequence.inFlight());
        CompletableFuture<Void> large = new CompletableFuture<>();
        add(sequence, large, 300, "large");
        CompletionStage<Void> room = sequence.room();
        assertFalse(room.toCompletableFuture().isDone(), "500 events in flight: the consumer waits");
        applied.get(0).complete(null);
        assertTrue(room.toCompletableFuture().isDone(), "the oldest batch finished: 498 in flight");
        assertEquals(498, sequence.inFlight());
    }

    @Test
    void aBatchLargerThanTheLimitIsTakenWhenNothingIsInFlight() {
        BatchSequence sequence = new BatchSequence(10);
        CompletableFuture<Void> large = new CompletableFuture<>();
        add(sequence, large, 500, "large");
        CompletionStage<Void> room = sequence.room();
        assertFalse(room.toCompletableFuture().isDone());
        large.complete(null);
        assertTrue(room.toCompletableFuture().isDone());
        assertEquals(List.of("large"), finished);
    }

    @Test
    void atLeastOneEventInFlight() {
        assertThrows(IllegalArgumentException.class, () -> new BatchSequence(0));
    }
}
