package dev.cabinet.metrics;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;

/** Keys of metric samples: {@code METRICS#{resourceId}#{shard}} / {@code {timestamp}}. */
final class MetricsKeys {

    private MetricsKeys() {
    }

    /**
     * A sample's key, its shard from its timestamp: spreads one resource's writes, and puts each timestamp in exactly
     * one shard, so sort keys are unique across shards (what the merged read relies on).
     */
    static Key sample(String resourceId, String timestamp, int shards) {
        return KeyPlan.METRIC_SAMPLE.key(resourceId, Shards.of(timestamp, shards), timestamp);
    }
}
