package dev.cabinet.projection;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;

/** The projection engine's counters and timers, as Micrometer meters. */
final class ProjectionMetrics {

    private final MeterRegistry registry;

    ProjectionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void applied(String type, long nanos) {
        registry.timer("cabinet.projection.applied", "type", type).record(nanos, TimeUnit.NANOSECONDS);
    }
}
