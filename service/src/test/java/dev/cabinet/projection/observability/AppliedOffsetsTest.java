package dev.cabinet.projection.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;

/**
 * What a graceful drain commits ({@link ProjectionLag#appliedOffsets}) moves only with what this instance applied: a
 * batch that left a partition to its newer owner (stale or fenced, it applied nothing there) does not move it (no I/O).
 */
class AppliedOffsetsTest {

    private static final TopicPartition MINE = new TopicPartition("cabinet.posts", 0);
    private static final TopicPartition HANDED_OVER = new TopicPartition("cabinet.posts", 1);

    @Test
    void aPartitionLeftToANewerOwnerIsNotCountedAsApplied() {
        ProjectionLag lag = new ProjectionLag(new SimpleMeterRegistry(), new NoConsumers(), Clock.systemUTC());
        ConsumerRecords<String, byte[]> batch = new ConsumerRecords<>(Map.of(
                MINE, List.of(record(MINE, 7), record(MINE, 8)),
                HANDED_OVER, List.of(record(HANDED_OVER, 100), record(HANDED_OVER, 199))));
        lag.started(batch);

        lag.finished(batch, Set.of(HANDED_OVER));

        assertEquals(Map.of(MINE, 8L), lag.appliedOffsets());
    }

    private static ConsumerRecord<String, byte[]> record(TopicPartition partition, long offset) {
        return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, "k", new byte[0]);
    }

    /** A client service with no channels: the lag asks no consumer for its offsets. */
    private static final class NoConsumers implements KafkaClientService {

        @Override
        public <K, V> List<KafkaConsumer<K, V>> getConsumers(String channel) {
            return List.of();
        }

        @Override
        public <K, V> KafkaProducer<K, V> getProducer(String channel) {
            return null;
        }

        @Override
        public Set<String> getConsumerChannels() {
            return Set.of();
        }

        @Override
        public Set<String> getProducerChannels() {
            return Set.of();
        }
    }
}
