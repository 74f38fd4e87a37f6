package dev.cabinet.metrics;

import java.util.List;

import dev.cabinet.decision.Decision;
import dev.cabinet.metrics.MetricsEvent.MetricsRecorded;
import dev.cabinet.metrics.MetricsEvent.Sample;

/**
 * The rule of metrics: any authenticated caller records samples of any resource, and every request is recorded (a
 * sample sent twice is written twice, to the same item: its key is the resource and the timestamp).
 */
public final class MetricsDecisions {

    /** Samples of one resource, their timestamps already in the fixed-width form the keys sort by. */
    public record RecordSamples(String resourceId, List<Sample> samples) {
    }

    private MetricsDecisions() {
    }

    public static Decision record(RecordSamples command) {
        return Decision.accept(MetricsEvent.RECORDED, new MetricsRecorded(command.resourceId(), command.samples()));
    }
}
