package dev.cabinet.projection.ordering;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * Which partitions each consumer (channel) has handed over, and its batches still unfinished with their partitions: a
 * revoked partition goes to its next owner only once this consumer's batches of it have finished, and its records that
 * still arrive are left alone until it is assigned to the consumer again. Kept per consumer because a partition one
 * consumer lost may already belong to a sibling in this process, whose batches of it must go on. One lock for both
 * sets, so that a batch either is registered before a handover looks or sees the partition handed over.
 */
final class Handovers {

    /** A batch admitted: its records, and what completes once it has finished (or failed). */
    record Admitted(ConsumerRecords<String, byte[]> records, CompletableFuture<Void> finished) {
    }

    private record Batch(String channel, Set<TopicPartition> partitions, CompletableFuture<Void> finished) {
    }

    private final Map<String, Set<TopicPartition>> handedOver = new HashMap<>();
    private final Set<Batch> unfinished = new HashSet<>();

    /**
     * The batch without the records of partitions its consumer handed over (the connector drops those it had fetched,
     * on its polling thread, while its event loop may be handing out a batch), registered as unfinished until
     * {@code finished} completes; empty when nothing is left of it.
     */
    synchronized Optional<Admitted> admit(String channel, ConsumerRecords<String, byte[]> received) {
        Set<TopicPartition> gone = handedOver.getOrDefault(channel, Set.of());
        ConsumerRecords<String, byte[]> records = received;
        if (!Collections.disjoint(gone, received.partitions())) {
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> kept = new LinkedHashMap<>();
            for (TopicPartition partition : received.partitions()) {
                if (!gone.contains(partition)) {
                    kept.put(partition, received.records(partition));
                }
            }
            records = new ConsumerRecords<>(kept, Map.of());
        }
        if (records.isEmpty()) {
            return Optional.empty();
        }
        Batch batch = new Batch(channel, Set.copyOf(records.partitions()), new CompletableFuture<>());
        unfinished.add(batch);
        batch.finished().whenComplete((nothing, failure) -> {
            synchronized (this) {
                unfinished.remove(batch);
            }
        });
        return Optional.of(new Admitted(records, batch.finished()));
    }

    /** The consumer has the partitions (again): their records are applied. */
    synchronized void assigned(String channel, Collection<TopicPartition> partitions) {
        Set<TopicPartition> gone = handedOver.get(channel);
        if (gone != null) {
            gone.removeAll(partitions);
        }
    }

    /**
     * The consumer lets the partitions go: their records are left alone from now on; completes once every batch of
     * them that the consumer had started has finished. A null channel (a consumer not found) waits for any consumer's.
     */
    synchronized CompletableFuture<Void> handOver(String channel, Collection<TopicPartition> partitions) {
        if (channel != null) {
            handedOver.computeIfAbsent(channel, c -> new HashSet<>()).addAll(partitions);
        }
        return CompletableFuture.allOf(unfinished.stream()
                .filter(batch -> channel == null || batch.channel().equals(channel))
                .filter(batch -> !Collections.disjoint(batch.partitions(), partitions))
                .map(batch -> batch.finished().handle((nothing, failure) -> null))
                .toArray(CompletableFuture[]::new));
    }
}
