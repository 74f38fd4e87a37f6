package dev.cabinet.projection.ordering;

import java.util.Collection;

import org.apache.kafka.common.TopicPartition;

/**
 * A rebalance's assignment as the engine takes it, for tests of other packages that need one without a consumer's:
 * the partitions are the direct sequence's, in no known generation (no owner epoch).
 */
public final class Rebalances {

    private Rebalances() {
    }

    public static void assign(PartitionHandover handover, Collection<TopicPartition> partitions) {
        handover.assigned(ProjectionEngine.DIRECT, partitions, -1);
    }
}
