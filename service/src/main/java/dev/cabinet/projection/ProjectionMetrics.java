package dev.cabinet.projection;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** The projection engine's counters and timers, as Micrometer meters. */
final class ProjectionMetrics {

    private final MeterRegistry registry;
    private final Timer eventAge;

    ProjectionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.eventAge = Timer.builder("cabinet.projection.event.age")
                .description("how old an event was when it had been applied: from the record's timestamp (when the "
                        + "command's event was sent) until its projection's last write; the projector's part of "
                        + "freshness")
                .publishPercentileHistogram()
                // buckets at the freshness target (250 ms) and around it, for alerts and the benchmark
                .serviceLevelObjectives(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
                        Duration.ofMillis(500), Duration.ofSeconds(1))
                .register(registry);
    }

    void applied(String type, long nanos) {
        registry.timer("cabinet.projection.applied", "type", type).record(nanos, TimeUnit.NANOSECONDS);
    }

    void appliedAged(long recordTimestampMillis) {
        eventAge.record(Math.max(0, System.currentTimeMillis() - recordTimestampMillis), TimeUnit.MILLISECONDS);
    }
}
