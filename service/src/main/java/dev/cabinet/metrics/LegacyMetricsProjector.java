package dev.cabinet.metrics;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.metrics.MetricsEvent.MetricsRecorded;
import dev.cabinet.metrics.MetricsEvent.Sample;
import dev.cabinet.table.AttributeValues;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Writes each sample as a whole item, 25 per BatchWriteItem: a sample is a fact about one instant, so writing it again
 * is harmless, and no read or condition is needed. Each carries its expiry for the table's time to live.
 */
@ApplicationScoped
public class LegacyMetricsProjector implements LegacyProjector {

    private final ProjectionStore store;
    private final MetricsConfig config;

    LegacyMetricsProjector(ProjectionStore store, MetricsConfig config) {
        this.store = store;
        this.config = config;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(MetricsEvent.RECORDED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        MetricsRecorded e = (MetricsRecorded) event.data();
        return store.putAll(e.samples().stream().map(sample -> item(e.resourceId(), sample)).toList());
    }

    private Map<String, AttributeValue> item(String resourceId, Sample sample) {
        Key key = MetricsKeys.sample(resourceId, sample.timestamp(), config.shards());
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributes());
        item.put(KeyPlan.TYPE, AttributeValues.of(KeyPlan.METRIC_SAMPLE.name()));
        item.put("resourceId", AttributeValues.of(resourceId));
        item.put("timestamp", AttributeValues.of(sample.timestamp()));
        item.put("cpu", AttributeValues.of(sample.cpu()));
        item.put("memory", AttributeValues.of(sample.memory()));
        item.put("requests", AttributeValues.of(sample.requests()));
        long expiresAt = Instant.parse(sample.timestamp()).plus(config.retention()).getEpochSecond();
        item.put(KeyPlan.TTL_ATTRIBUTE, AttributeValues.of(expiresAt));
        return item;
    }
}
