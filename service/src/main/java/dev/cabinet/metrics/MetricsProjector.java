package dev.cabinet.metrics;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.metrics.MetricsEvent.MetricsRecorded;
import dev.cabinet.metrics.MetricsEvent.Sample;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;

/**
 * Decides what a metrics event does: each sample is a whole item put as it is, since a sample is a fact about one
 * instant (writing it again is harmless, no read or condition is needed). Each carries its expiry for the table's time
 * to live.
 */
@ApplicationScoped
public class MetricsProjector implements Projector<MetricsEvent> {

    private final MetricsConfig config;

    MetricsProjector(MetricsConfig config) {
        this.config = config;
    }

    @Override
    public List<EventType<? extends MetricsEvent>> eventTypes() {
        return List.of(MetricsEvent.RECORDED);
    }

    /** Samples are facts: no aggregate root records them. */
    @Override
    public StreamTarget target(MetricsEvent event) {
        return StreamTarget.none();
    }

    /** One put per timestamp: a later sample of the event for the same timestamp replaces the earlier one. */
    @Override
    public WritePlan decide(MetricsEvent event, Reads reads) {
        MetricsRecorded e = (MetricsRecorded) event;
        Map<String, Sample> byTimestamp = new LinkedHashMap<>();
        e.samples().forEach(sample -> byTimestamp.put(sample.timestamp(), sample));
        WritePlan plan = WritePlan.facts();
        byTimestamp.values().forEach(sample -> plan.then(new WritePlan.Put(item(e.resourceId(), sample))));
        return plan;
    }

    private Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item(String resourceId,
            Sample sample) {
        return KeyPlan.METRIC_SAMPLE.item(Map.of(
                Attributes.RESOURCE_ID, resourceId,
                Attributes.SHARD, Shards.of(sample.timestamp(), config.shards()),
                Attributes.TIMESTAMP, sample.timestamp(),
                Attributes.CPU, sample.cpu(),
                Attributes.MEMORY, sample.memory(),
                Attributes.REQUESTS, sample.requests(),
                KeyPlan.TTL_ATTRIBUTE, Instant.parse(sample.timestamp()).plus(config.retention()).getEpochSecond()));
    }
}
