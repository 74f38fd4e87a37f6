package dev.cabinet.projection.ordering;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.observability.ProjectionProgress;

/**
 * The owner epoch of each partition assigned here: raised in the store (on the partition's progress item) at every
 * assignment, in the order of the consumer group's generations, without holding up the consumer's polling thread; a
 * batch waits for the epochs of its partitions and carries them as they were when it was admitted, so that its counts
 * stay fenced by the ownership they began under even after the partition came back to this instance
 * ({@link dev.cabinet.table.OwnerFence}). An ownership found stale (the group assigned the partition again before its
 * raise landed) or fenced (one of its counts met a newer owner's) applies nothing more: its records are left to the
 * newer owner, unapplied and unacknowledged.
 */
@ApplicationScoped
public class OwnerEpochs {

    private static final Logger LOG = Logger.getLogger(OwnerEpochs.class);

    private final ProjectionProgress progress;
    private final TransientRetries retries;
    /** The latest assignment's epoch of each partition, being raised or raised. */
    private final Map<TopicPartition, CompletableFuture<Long>> latest = new ConcurrentHashMap<>();
    /** The group generation of each partition's latest assignment here. */
    private final Map<TopicPartition, Integer> generations = new ConcurrentHashMap<>();
    /** The ownerships that met a newer owner: their partitions' records at that epoch are applied no more. */
    private final Set<Ownership> fenced = ConcurrentHashMap.newKeySet();

    /** One partition under one epoch. */
    private record Ownership(TopicPartition partition, long epoch) {
    }

    OwnerEpochs(ProjectionProgress progress, TransientRetries retries) {
        this.progress = progress;
        this.retries = retries;
    }

    /**
     * The partitions are assigned here in the group's {@code generation} (negative: not known, as for the batches
     * handed to the engine directly, whose records carry no fence): their epochs are raised, retried while the store
     * fails transiently.
     */
    void assigned(Collection<TopicPartition> partitions, int generation) {
        Instant assignedAt = Instant.now();
        for (TopicPartition partition : partitions) {
            if (generation < 0) {
                latest.remove(partition);
                generations.remove(partition);
                continue;
            }
            generations.put(partition, generation);
            latest.put(partition, retries.retrying(progress.raiseOwnerEpoch(partition, generation, assignedAt),
                    Long.MAX_VALUE).invoke(epoch -> {
                        if (epoch == ProjectionProgress.STALE) {
                            LOG.warnf("Partition %s was assigned again after generation %d assigned it here: its "
                                    + "records are left to its newer owner", partition, generation);
                        }
                    }).subscribeAsCompletionStage());
        }
    }

    /**
     * The epochs of the partitions as assigned now, once raised, for a batch polled in the group's {@code generation}
     * (negative: not known); a partition never assigned here (a batch handed to the engine directly, not by a
     * consumer) has none, and its counts carry no fence. A batch polled before the partition's latest assignment (it
     * waited in the connector through a rebalance that gave the partition back here) is
     * {@link ProjectionProgress#STALE} for it: the records are fetched again from the committed offset, and the two
     * must not run under one epoch.
     */
    CompletionStage<Map<TopicPartition, Long>> of(Collection<TopicPartition> partitions, int generation) {
        Map<TopicPartition, CompletableFuture<Long>> raising = new HashMap<>();
        for (TopicPartition partition : partitions) {
            Integer assigned = generations.get(partition);
            CompletableFuture<Long> epoch = generation >= 0 && assigned != null && assigned > generation
                    ? CompletableFuture.completedFuture(ProjectionProgress.STALE)
                    : latest.get(partition);
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

    /** One of the partition's counts under {@code epoch} met a newer owner: nothing more is applied under it. */
    void fence(TopicPartition partition, long epoch) {
        if (fenced.add(new Ownership(partition, epoch))) {
            LOG.warnf("Partition %s has a newer owner than epoch %d here: its records under that epoch are left to "
                    + "it", partition, epoch);
        }
    }

    /** Whether records of the partition admitted under {@code epoch} (null: none) are left to a newer owner. */
    boolean leftToNewerOwner(TopicPartition partition, Long epoch) {
        return epoch != null && (epoch == ProjectionProgress.STALE || fenced.contains(new Ownership(partition, epoch)));
    }
}
