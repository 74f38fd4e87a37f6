package dev.cabinet.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.Arc;

/**
 * Waits until the projector has applied the end of every event topic: each partition's last offset is committed by its
 * consumer group or, sooner, reported applied by this process's projector (the {@code cabinet.projection.applied.offset}
 * gauge). Offsets are committed a few seconds apart (the throttled strategy), so waiting on commits alone would add up
 * to that much to every wait, after the work is done.
 */
public final class ProjectorLag {

    private ProjectorLag() {
    }

    public static void awaitCaughtUp(Duration atMost) {
        Config config = ConfigProvider.getConfig();
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.getValue("kafka.bootstrap.servers", String.class));
        String group = config.getValue("mp.messaging.incoming.events.group.id", String.class);
        List<String> topics = List.of(config.getValue("mp.messaging.incoming.events.topics", String.class).split(","));
        try (Admin admin = Admin.create(properties)) {
            await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> caughtUp(admin, group, topics));
        }
    }

    private static boolean caughtUp(Admin admin, String group, List<String> topics) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
        List<TopicPartition> partitions = admin.describeTopics(topics).allTopicNames().get().values().stream()
                .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
                .collect(Collectors.toList());
        Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
        var ends = admin.listOffsets(latest).all().get();
        Map<TopicPartition, Double> applied = appliedHere();
        return partitions.stream().allMatch(p -> {
            long end = ends.get(p).offset();
            OffsetAndMetadata done = committed.get(p);
            return end == 0 || done != null && done.offset() >= end || applied.getOrDefault(p, -1.0) >= end - 1;
        });
    }

    /** The last offset this process's projector applied, per partition it has projected since it started. */
    private static Map<TopicPartition, Double> appliedHere() {
        MeterRegistry registry = Arc.container().instance(MeterRegistry.class).get();
        return registry.find("cabinet.projection.applied.offset").gauges().stream().collect(Collectors.toMap(
                gauge -> new TopicPartition(gauge.getId().getTag("topic"),
                        Integer.parseInt(gauge.getId().getTag("partition"))),
                Gauge::value, Math::max));
    }
}
