package dev.cabinet.consistency;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How long requests may wait for the projector to reach a log position. */
@ConfigMapping(prefix = "cabinet.consistency")
public interface ConsistencyConfig {

    /** The longest a query with a Consistency-Token waits before it fails with a 503. */
    @WithDefault("5s")
    Duration maxWait();

    /** The longest a command honours {@code Prefer: wait=N}; a larger N is cut to this. */
    @WithDefault("30s")
    Duration maxPreferWait();
}
