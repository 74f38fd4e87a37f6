package dev.cabinet.projection.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Handovers are per consumer: one consumer letting a partition go neither waits for nor stops a sibling's batches. */
class HandoversTest {

    private static final TopicPartition P = new TopicPartition("cabinet.users", 1);
    private static final TopicPartition Q = new TopicPartition("cabinet.users", 2);

    @Test
    void aHandoverWaitsForItsConsumersBatchesOfThePartitionAndThenLeavesItsRecordsAlone() {
        Handovers handovers = new Handovers();
        Handovers.Admitted first = handovers.admit("events$1", batch(P, Q)).orElseThrow();

        CompletableFuture<Void> handedOver = handovers.handOver("events$1", List.of(P));
        assertFalse(handedOver.isDone(), "the consumer's batch of the partition is still in flight");
        assertTrue(handovers.handOver("events$2", List.of(P)).isDone(), "a sibling has no batch of it to wait for");
        first.finished().complete(null);
        assertTrue(handedOver.isDone());

        assertEquals(List.of(Q), List.copyOf(handovers.admit("events$1", batch(P, Q)).orElseThrow().records()
                .partitions()), "the partition handed over is left out, the other kept");
        assertTrue(handovers.admit("events$1", batch(P)).isEmpty());
        handovers.assigned("events$2", List.of(P));
        assertTrue(handovers.admit("events$1", batch(P)).isEmpty(), "assigned to a sibling, not to this consumer");
        handovers.assigned("events$1", List.of(P));
        assertTrue(handovers.admit("events$1", batch(P)).isPresent(), "assigned again: applied");
    }

    @Test
    void aSiblingKeepsApplyingAPartitionAnotherConsumerLost() {
        Handovers handovers = new Handovers();
        handovers.assigned("events$2", List.of(P));
        handovers.handOver("events$1", List.of(P));   // lost by the first consumer after the sibling got it

        assertTrue(handovers.admit("events$2", batch(P)).isPresent());
    }

    private static ConsumerRecords<String, byte[]> batch(TopicPartition... partitions) {
        Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> records = new java.util.LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            records.put(partition, List.of(new ConsumerRecord<>(partition.topic(), partition.partition(), 0, "k",
                    new byte[0])));
        }
        return new ConsumerRecords<>(records, Map.of());
    }
}
