package dev.cabinet.projection.observability;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import dev.cabinet.projection.ordering.ProjectionConfig;

/**
 * Readiness: DOWN while a partition's batch has been in flight longer than {@code cabinet.projection.stuck-after}
 * (its writes keep failing, e.g. the store is unreachable), naming the partition and how far behind it is. Up or down,
 * its data says how far behind each partition this instance projects is, in seconds (the age of its oldest event not
 * applied yet) beside events, and which is furthest behind: what an operator asks first, without a metrics backend.
 */
@Readiness
@ApplicationScoped
public class ProjectorHealthCheck implements HealthCheck {

    /** The data entry naming the partition furthest behind, and by how many seconds. */
    static final String OLDEST_UNAPPLIED = "oldestUnappliedEvent";

    private final ProjectionLag lag;
    private final ProjectionConfig config;

    ProjectorHealthCheck(ProjectionLag lag, ProjectionConfig config) {
        this.lag = lag;
        this.config = config;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("projector");
        List<ProjectionLag.PartitionLag> partitions = lag.partitions();
        partitions.stream().max(Comparator.comparingDouble(ProjectionLag.PartitionLag::timeLagSeconds))
                .ifPresent(worst -> response.withData(OLDEST_UNAPPLIED, seconds(worst.timeLagSeconds())
                        + (worst.timeLagSeconds() > 0 ? " (" + worst.name() + ")" : "")));
        // One entry per partition, "<seconds> s, <events> events": the seconds first, so a reader can parse them.
        for (ProjectionLag.PartitionLag partition : partitions) {
            response.withData(partition.name(), seconds(partition.timeLagSeconds()) + ", " + partition.offsetLag()
                    + " events");
        }
        return lag.stuckLongerThan(config.stuckAfter())
                .map(reason -> response.down().withData("reason", reason).build())
                .orElseGet(() -> response.up().build());
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.1f s", value);
    }
}
