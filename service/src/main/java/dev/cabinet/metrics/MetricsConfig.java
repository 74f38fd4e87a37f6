package dev.cabinet.metrics;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How metric samples are stored. */
@ConfigMapping(prefix = "cabinet.metrics")
public interface MetricsConfig {

    /** Partitions each resource's samples are spread over; a sample's shard comes from its timestamp. Grow only. */
    @WithDefault("4")
    int shards();

    /** How long samples are kept: their expiresAt is the sample's time plus this, and DynamoDB's TTL deletes them. */
    @WithDefault("30D")
    Duration retention();
}
