package dev.cabinet.metrics;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How metric samples are stored. */
@ConfigMapping(prefix = "cabinet.metrics")
public interface MetricsConfig {

    /**
     * Partitions each resource's samples are spread over; a sample's shard comes from its timestamp and this count.
     * Fixed for a table: under another count a sample recorded again lands in another shard beside the first, and
     * reads return both, so change it only with a blue/green rebuild into a new table (design.md).
     */
    @WithDefault("4")
    int shards();

    /**
     * How long samples are kept: their expiresAt is the sample's time plus this, and DynamoDB's TTL deletes them (a
     * sample already older than this when it arrives goes within days; DynamoDB's TTL leaves alone an expiresAt more
     * than five years past, so a sample that old stays).
     */
    @WithDefault("30D")
    Duration retention();
}
