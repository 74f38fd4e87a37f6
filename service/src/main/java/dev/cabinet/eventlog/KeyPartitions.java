package dev.cabinet.eventlog;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.utils.Utils;

import io.smallrye.mutiny.Uni;

/**
 * Which partition of a topic a key's records belong on: the one Kafka's Java producer picks, and Cabinet's with it, the
 * murmur2 hash of the key's UTF-8 bytes modulo the topic's partitions. Producers in other languages must pick the same
 * (librdkafka, under Python, Go, .NET and kcat, defaults to {@code consistent_random}, a CRC32 hash: its
 * {@code murmur2_random} partitioner matches Java's), or one aggregate's events land on two partitions and lose their
 * order. The topics' partition counts are asked of the broker once each.
 */
@ApplicationScoped
public class KeyPartitions {

    private final LogAdmin admin;
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    KeyPartitions(LogAdmin admin) {
        this.admin = admin;
    }

    /** The partition of {@code partitions} that Java's default partitioner gives the key. */
    public static int of(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** How many partitions the topic has, asked of the broker the first time only. */
    public Uni<Integer> count(String topic) {
        Integer known = counts.get(topic);
        return known != null ? Uni.createFrom().item(known) : countNow(topic);
    }

    /** How many partitions the topic has now, asked of the broker (a topic's partitions can be added to). */
    public Uni<Integer> countNow(String topic) {
        return Uni.createFrom().completionStage(() -> admin.admin().describeTopics(List.of(topic)).allTopicNames()
                .toCompletionStage())
                .map(topics -> topics.get(topic).partitions().size())
                .invoke(count -> counts.put(topic, count));
    }
}
