package dev.cabinet.projection;

import java.time.Duration;

import dev.cabinet.table.Walk;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the projection engine applies a batch. */
@ConfigMapping(prefix = "cabinet.projection")
public interface ProjectionConfig {

    /** How many aggregate keys of one batch are applied at the same time (each key's events stay in order). */
    @WithDefault("32")
    int concurrency();

    /** How many items a fan-out (a rename reaching every copy) updates at the same time. */
    @WithDefault("16")
    int fanOutConcurrency();

    /** How many items a fan-out reads per page while it walks the affected items. */
    @WithDefault("100")
    int fanOutPageSize();

    /** Readiness reports DOWN when a partition's batch has not finished for longer than this (stuck on errors). */
    @WithDefault("60s")
    Duration stuckAfter();

    /** First wait before retrying a transient store error; doubles up to {@link #maxBackoff()}, with jitter. */
    @WithDefault("100ms")
    Duration initialBackoff();

    @WithDefault("10s")
    Duration maxBackoff();

    /**
     * While a retry waits, how often one cheap call checks whether the store answers again; when it does after an
     * outage, every waiting retry goes at once instead of sleeping out its backoff.
     */
    @WithDefault("250ms")
    Duration probeInterval();

    /**
     * On shutdown, how long the batches in flight get to finish before the consumer closes; keep it below
     * {@code quarkus.shutdown.timeout}.
     */
    @WithDefault("20s")
    Duration drainTimeout();

    /** How a fan-out walks the items it reaches. */
    default Walk fanOutWalk() {
        return new Walk(fanOutPageSize(), fanOutConcurrency());
    }
}
