package dev.cabinet.metrics;

import java.util.List;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.Topics;

/**
 * Measurements of a resource, keyed by resource id on {@value Topics#METRICS}. This is the high-volume path: other
 * services write these events straight into Kafka (docs/design.md gives the contract).
 */
public sealed interface MetricsEvent extends DomainEvent permits MetricsEvent.MetricsRecorded {

    EventType<MetricsRecorded> RECORDED = EventType.of("cabinet.metrics.recorded.v1", MetricsRecorded.class,
            Topics.METRICS);

    /** The most samples one event (or one request) carries. */
    int MAX_SAMPLES = 500;

    String resourceId();

    @Override
    default String aggregateId() {
        return resourceId();
    }

    /** Samples of one resource; a later sample for the same timestamp replaces the earlier one. */
    record MetricsRecorded(String resourceId, List<Sample> samples) implements MetricsEvent {
        public MetricsRecorded {
            EventFields.id("resourceId", resourceId);
            if (samples == null || samples.isEmpty() || samples.size() > MAX_SAMPLES) {
                throw new IllegalArgumentException("samples must hold 1 to " + MAX_SAMPLES + " samples");
            }
            samples = List.copyOf(samples);
        }
    }

    /** One measurement: cpu and memory in percent (0–100), requests served since the previous sample. */
    record Sample(String timestamp, double cpu, double memory, long requests) {
        public Sample {
            EventFields.timestamp("timestamp", timestamp);
            percent("cpu", cpu);
            percent("memory", memory);
            EventFields.count("requests", requests);
        }

        private static void percent(String field, double value) {
            if (!(value >= 0 && value <= 100)) {
                throw new IllegalArgumentException(field + " must be a percentage between 0 and 100");
            }
        }
    }
}
