package dev.cabinet.demo;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Whether an empty table gets the seeds' examples at startup (on in dev mode, off in tests and production). */
@ConfigMapping(prefix = "cabinet.demo-data")
public interface DemoDataConfig {

    @WithDefault("false")
    boolean enabled();
}
