package dev.cabinet.post;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The published feed's write sharding. */
@ConfigMapping(prefix = "cabinet.feed")
public interface FeedConfig {

    /**
     * How many GSI1 partitions ({@code POSTS#PUBLISHED#0..n-1}) published posts are spread over. It may grow, never
     * shrink: a post stays in the shard it was published to, and reads query shards 0..n-1.
     */
    @WithDefault("4")
    int shards();
}
