package dev.cabinet.table;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the sharded counters (a post's likeCount and commentCount, a group's memberCount) are spread. */
@ConfigMapping(prefix = "cabinet.counters")
public interface CountersConfig {

    /**
     * How many counter items each sharded counter is spread over, so that many changes at once (2,000 likes of one
     * post) do not queue on one item. It may grow, never shrink: reads sum shards 0..n-1, and a smaller n would drop
     * what the higher shards counted.
     */
    @WithDefault("8")
    int shards();
}
