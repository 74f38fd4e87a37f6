package dev.cabinet.projection;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: DOWN while a partition's batch has been in flight longer than {@code cabinet.projection.stuck-after}
 * (its writes keep failing, e.g. the store is unreachable), naming the partition and how far behind it is.
 */
@Readiness
@ApplicationScoped
public class ProjectorHealthCheck implements HealthCheck {

    private final ProjectionLag lag;
    private final ProjectionConfig config;

    ProjectorHealthCheck(ProjectionLag lag, ProjectionConfig config) {
        this.lag = lag;
        this.config = config;
    }

    @Override
    public HealthCheckResponse call() {
        return lag.stuckLongerThan(config.stuckAfter())
                .map(reason -> HealthCheckResponse.named("projector").down().withData("reason", reason).build())
                .orElseGet(() -> HealthCheckResponse.named("projector").up().build());
    }
}
