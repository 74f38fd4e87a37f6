package dev.cabinet.http;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How long a request of the REST API may take at most, outages included (see {@link RequestDeadline}). */
@ConfigMapping(prefix = "cabinet.http")
public interface DeadlineConfig {

    /**
     * The request deadline: by then every request has answered, a 503 with Retry-After if what it waits for did not
     * answer. Above the store's call timeout and the log's acknowledgement timeout (4 s each), so that in a plain
     * outage those answer first and the deadline only bounds their sum; waits the client asks for come on top.
     */
    @WithDefault("5s")
    Duration deadline();
}
