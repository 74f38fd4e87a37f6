package dev.cabinet.demo;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Whether an empty table gets the seeds' examples at startup (on in dev mode, off in tests and production). */
@ConfigMapping(prefix = "cabinet.demo-data")
public interface DemoDataConfig {

    /**
     * Load the seeds' examples (John and Jane, their post, the Developers group, C001 and its orders, ...) into an
     * empty table at startup, through the log as commands would. Dev mode only: set in another launch mode, it is
     * refused with a warning.
     */
    @WithDefault("false")
    boolean enabled();
}
