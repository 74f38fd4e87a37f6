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

/** Waits until the projector's consumer group has committed the end of every event topic: it has applied everything. */
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
            await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> caughtUp(admin, group, topics));
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
        return partitions.stream().allMatch(p -> {
            long end = ends.get(p).offset();
            OffsetAndMetadata done = committed.get(p);
            return end == 0 || done != null && done.offset() >= end;
        });
    }
}
