package dev.cabinet.metrics;

import static dev.cabinet.eventlog.FieldSchema.Kind.COUNT;
import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.LIST;
import static dev.cabinet.eventlog.FieldSchema.Kind.PERCENT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import java.util.List;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
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

    @EventSchema(
            description = "Samples of one resource; a later sample for the same timestamp replaces the earlier one.",
            key = "resourceId")
    record MetricsRecorded(@FieldSchema(ID) String resourceId,
            @FieldSchema(value = LIST, min = 1, max = MAX_SAMPLES, description = "One measurement: cpu and memory in "
                    + "percent, requests served since the previous sample.") List<Sample> samples)
            implements MetricsEvent {
        /** The example the published schema shows. */
        public static final MetricsRecorded EXAMPLE = new MetricsRecorded("web-1",
                List.of(new Sample("2026-01-31T12:00:00.000Z", 41.5, 63.2, 1200)));

        public MetricsRecorded {
            EventFields.id("resourceId", resourceId);
            if (samples == null || samples.isEmpty() || samples.size() > MAX_SAMPLES) {
                throw new IllegalArgumentException("samples must hold 1 to " + MAX_SAMPLES + " samples");
            }
            samples = List.copyOf(samples);
        }
    }

    /** One measurement: cpu and memory in percent (0–100), requests served since the previous sample. */
    record Sample(@FieldSchema(TIMESTAMP) String timestamp, @FieldSchema(PERCENT) double cpu,
            @FieldSchema(PERCENT) double memory, @FieldSchema(COUNT) long requests) {
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
