package dev.cabinet.eventlog;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;

/**
 * Where each partition of the log ends, so that a position no command could have been given (a forged or mistyped
 * consistency token) is refused at once instead of waited for. Ends are asked of the broker only when a position lies
 * past the last end seen, at most once a second per partition.
 */
@ApplicationScoped
public class LogEnds {

    private static final long REFRESH_NANOS = Duration.ofSeconds(1).toNanos();

    private final Map<String, Object> kafkaConfig;
    private final int partitions;
    private final Map<TopicPartition, long[]> ends = new ConcurrentHashMap<>();
    private volatile Admin admin;

    LogEnds(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            @ConfigProperty(name = "cabinet.events.partitions") int partitions) {
        this.kafkaConfig = kafkaConfig;
        this.partitions = partitions;
    }

    /** Whether the log holds an event at this position (its partition exists and has reached that offset). */
    public Uni<Boolean> holds(LogPosition position) {
        if (position.partition() >= partitions) {
            return Uni.createFrom().item(false);   // the topics have cabinet.events.partitions partitions
        }
        TopicPartition partition = new TopicPartition(position.topic(), position.partition());
        long[] known = ends.get(partition);
        if (known != null && (position.offset() < known[0] || System.nanoTime() - known[1] < REFRESH_NANOS)) {
            return Uni.createFrom().item(position.offset() < known[0]);
        }
        return Uni.createFrom().completionStage(() -> admin().listOffsets(Map.of(partition, OffsetSpec.latest()))
                .partitionResult(partition).toCompletionStage())
                .map(result -> {
                    ends.put(partition, new long[] { result.offset(), System.nanoTime() });
                    return position.offset() < result.offset();
                })
                .onFailure().transform(EventLogUnavailableException::new);
    }

    private Admin admin() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    Map<String, Object> config = new HashMap<>();
                    kafkaConfig.forEach((name, value) -> {
                        if (AdminClientConfig.configNames().contains(name)) {
                            config.put(name, value);
                        }
                    });
                    config.put(AdminClientConfig.CLIENT_ID_CONFIG, "cabinet-log-ends");
                    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
                    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
                    admin = Admin.create(config);
                }
            }
        }
        return admin;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
