package dev.cabinet.table;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Which DynamoDB table Cabinet uses, and whether it may create it. */
@ConfigMapping(prefix = "cabinet.table")
public interface TableConfig {

    /** The table's name. */
    @WithDefault("cabinet")
    String name();

    /**
     * Create the table from the key plan when it does not exist. Off by default: in production the table is declared
     * by infrastructure code and Cabinet only verifies it; dev mode and tests switch this on.
     */
    @WithDefault("false")
    boolean createIfMissing();
}
