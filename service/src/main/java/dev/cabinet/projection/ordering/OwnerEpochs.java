package dev.cabinet.projection.ordering;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;

import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.observability.ProjectionProgress;

/**
 * The owner epoch of each partition assigned here: raised in the store (on the partition's progress item) at every
 * assignment, without holding up the consumer's polling thread; a batch waits for the epochs of its partitions and
 * carries them as they were when it was admitted, so that its counts stay fenced by the ownership they began under
 * even after the partition came back to this instance ({@link dev.cabinet.table.OwnerFence}).
 */
@ApplicationScoped
public class OwnerEpochs {

    private final ProjectionProgress progress;
    private final TransientRetries retries;
    /** The latest assignment's epoch of each partition, being raised or raised. */
    private final Map<TopicPartition, CompletableFuture<Long>> latest = new ConcurrentHashMap<>();

    OwnerEpochs(ProjectionProgress progress, TransientRetries retries) {
        this.progress = progress;
        this.retries = retries;
    }

    /** The partitions are assigned here: their epochs are raised, retried while the store fails transiently. */
    void assigned(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            latest.put(partition, retries.retrying(progress.raiseOwnerEpoch(partition), Long.MAX_VALUE)
                    .subscribeAsCompletionStage());
        }
    }

    /**
     * The epochs of the partitions as assigned now, once raised; a partition never assigned here (a batch handed to
     * the engine directly, by a test or a tool) has none, and its counts carry no fence.
     */
    CompletionStage<Map<TopicPartition, Long>> of(Collection<TopicPartition> partitions) {
        Map<TopicPartition, CompletableFuture<Long>> raising = new HashMap<>();
        for (TopicPartition partition : partitions) {
            CompletableFuture<Long> epoch = latest.get(partition);
            if (epoch != null) {
                raising.put(partition, epoch);
            }
        }
        if (raising.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return CompletableFuture.allOf(raising.values().toArray(CompletableFuture[]::new)).thenApply(raised -> {
            Map<TopicPartition, Long> epochs = new HashMap<>();
            raising.forEach((partition, epoch) -> epochs.put(partition, epoch.join()));
            return epochs;
        });
    }
}
