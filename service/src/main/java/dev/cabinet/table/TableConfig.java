package dev.cabinet.table;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Which DynamoDB table Cabinet uses, and whether it may create it. */
@ConfigMapping(prefix = "cabinet.table")
public interface TableConfig {

    /**
     * The home table: it holds the pointer to the table that answers reads (blue/green rebuilds switch it) and the
     * idempotency records, and is the read model itself until a rebuild's cut-over points elsewhere.
     */
    @WithDefault("cabinet")
    String name();

    /**
     * The table this instance's projector writes: the home table by default; a rebuild's projector writes a new one
     * (with its own consumer group) until the cut-over makes it the table that answers reads. A rebuild's table is
     * named {@code <home table>-rebuild-<suffix>} ({@link #isRebuildTable}).
     */
    Optional<String> projectionTarget();

    /** How often an instance looks up which table answers reads (the cut-over reaches every instance within this). */
    @WithDefault("5s")
    Duration activeRefresh();

    /**
     * How many consistent reads the projector's side of the store sends at the same time; reads asked for meanwhile
     * wait for one to end and then go out together, in BatchGetItems of up to 100 keys ({@code CoalescedReads}).
     */
    @WithDefault("4")
    int readsInFlight();

    /**
     * How long the projector waits at most for an index read to show a GSI entry it wrote before it records the
     * positions after it as applied ({@code IndexVisibility}); 0 records them without waiting for indexes.
     */
    @WithDefault("30s")
    Duration indexWait();

    default String target() {
        return projectionTarget().orElse(name());
    }

    /** What a rebuild's table name starts with, after the home table's name. */
    String REBUILD_INFIX = "-rebuild-";

    /**
     * Whether {@code table} may hold a rebuild: {@code <home table>-rebuild-<suffix>}. The IAM policies grant exactly
     * these and the home table, never {@code <home table>-*}, which would reach an unrelated {@code cabinet-billing}.
     */
    default boolean isRebuildTable(String table) {
        return table.startsWith(name() + REBUILD_INFIX) && table.length() > (name() + REBUILD_INFIX).length();
    }

    /** Whether reads may be pointed at {@code table}: the home table, or a rebuild's. */
    default boolean mayAnswerReads(String table) {
        return table.equals(name()) || isRebuildTable(table);
    }

    /**
     * Create the table from the key plan when it does not exist. Off by default: in production the table is declared
     * by infrastructure code and Cabinet only verifies it; dev mode and tests switch this on.
     */
    @WithDefault("false")
    boolean createIfMissing();
}
