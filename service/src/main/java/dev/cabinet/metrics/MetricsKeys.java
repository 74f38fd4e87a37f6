package dev.cabinet.metrics;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of metric samples: {@code METRICS#{resourceId}#{shard}} / {@code {timestamp}}. */
final class MetricsKeys {

    private MetricsKeys() {
    }

    /**
     * The shard of a sample, from its timestamp: spreads one resource's writes, and puts each timestamp in exactly one
     * shard, so sort keys are unique across shards (what the merged read relies on).
     */
    static int shard(String timestamp, int shards) {
        return Math.floorMod(timestamp.hashCode(), shards);
    }

    static Key sample(String resourceId, String timestamp, int shards) {
        return KeyPlan.METRIC_SAMPLE.key(resourceId, shard(timestamp, shards), timestamp);
    }
}
