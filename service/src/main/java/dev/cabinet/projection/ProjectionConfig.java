package dev.cabinet.projection;

import java.time.Duration;
import java.util.Optional;

import dev.cabinet.table.Walk;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the projection engine applies a batch. */
@ConfigMapping(prefix = "cabinet.projection")
public interface ProjectionConfig {

    /** How many aggregate keys of one batch are applied at the same time (each key's events stay in order). */
    @WithDefault("32")
    int concurrency();

    /**
     * How many batches of one consumer are applied at the same time: the consumer fetches its next batch while the
     * previous ones finish, so an event that arrives meanwhile does not wait for a whole batch. Each stream's events
     * stay in order across them, and batches finish (progress recorded, offsets committed) in order.
     */
    @WithDefault("4")
    int batchesInFlight();

    /**
     * How often the engine reads the parked streams again (an operator's release elsewhere shows up after at most
     * this); a batch never waits for that read, except the first one after partitions are assigned.
     */
    @WithDefault("1s")
    Duration parkedRefresh();

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
     * This instance's stable name (the pod's name, {@code HOSTNAME}, in production): with one, the projector's consumers
     * are static members of the group ({@link StaticMembership}), so a restart under the same name takes the partitions
     * back at once; without one (empty) they are dynamic members. Must be unique among the group's live instances.
     */
    Optional<String> instanceId();

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
