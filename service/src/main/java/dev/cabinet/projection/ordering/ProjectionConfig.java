package dev.cabinet.projection.ordering;

import java.time.Duration;
import java.util.Optional;

import dev.cabinet.table.Walk;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the projection engine applies a batch. */
@ConfigMapping(prefix = "cabinet.projection")
public interface ProjectionConfig {

    /**
     * How many aggregate keys one projector applies at the same time, across all its consumers' batches in flight (each
     * key's events stay in order): what the store client's connections can carry ({@link
     * dev.cabinet.projection.ordering.ApplyingKeys}).
     */
    @WithDefault("32")
    int concurrency();

    /**
     * How many events of one consumer's batches are applied at the same time: the consumer fetches its next batch while
     * fewer than this are unfinished, so an event that arrives meanwhile starts at once instead of waiting for the
     * batches before it ({@link dev.cabinet.projection.ordering.BatchSequence}). Each key's events stay in order
     * across batches, and batches finish (progress recorded, offsets committed) in order. The default holds four full
     * polls (500 records each).
     */
    @WithDefault("2000")
    int eventsInFlight();

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

    /** The longest wait between two retries of a transient store error. */
    @WithDefault("10s")
    Duration maxBackoff();

    /**
     * While a retry waits, how often one cheap call checks whether the store answers again; when it does after an
     * outage, every waiting retry goes at once instead of sleeping out its backoff.
     */
    @WithDefault("250ms")
    Duration probeInterval();

    /**
     * This instance's stable name (the pod's name, {@code HOSTNAME}, in production): with one, the projector's
     * consumers are static members of the group ({@link dev.cabinet.projection.ordering.StaticMembership}), so a
     * restart under the same name takes the partitions back at once; without one (empty) they are dynamic members. Must
     * be unique among the group's live instances.
     */
    Optional<String> instanceId();

    /**
     * On shutdown, how long the batches in flight get to finish before the consumer closes. The drain runs after
     * Quarkus' own HTTP drain (at once on a projector, which serves only health and metrics), so the projector pod's
     * {@code terminationGracePeriodSeconds} (75) outlasts preStop, {@code quarkus.shutdown.delay}, this with the pause
     * and the commit ({@link GracefulDrain#longest}) and the consumers' close; DeploymentManifestsTest checks the sum.
     */
    @WithDefault("20s")
    Duration drainTimeout();

    /**
     * When a rebalance revokes partitions, how long their batches in flight get to finish before the consumer lets
     * them go to their next owner, which would otherwise apply the same events at the same time; keep it well below
     * the consumer's {@code max.poll.interval.ms} (5 minutes), the longest the group waits for a member to rejoin.
     */
    @WithDefault("60s")
    Duration handoverTimeout();

    /** How a fan-out walks the items it reaches. */
    default Walk fanOutWalk() {
        return new Walk(fanOutPageSize(), fanOutConcurrency());
    }
}
