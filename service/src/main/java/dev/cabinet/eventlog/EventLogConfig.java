package dev.cabinet.eventlog;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the event log writer. */
@ConfigMapping(prefix = "cabinet.events")
public interface EventLogConfig {

    /** The CloudEvents {@code source} of every event this instance writes. */
    @WithDefault("/cabinet")
    String source();
}
