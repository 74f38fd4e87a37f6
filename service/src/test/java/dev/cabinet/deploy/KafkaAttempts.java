package dev.cabinet.deploy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.Ids;

/**
 * What a Kafka user might try beyond its grants, with a pod's client settings: write a topic, join a consumer group;
 * and the refusal it meets.
 */
public final class KafkaAttempts {

    private KafkaAttempts() {
    }

    /** A try with a role's client settings. */
    public interface WithSettings {
        void run(Map<String, Object> settings) throws Exception;
    }

    /** A try. */
    public interface Call {
        void run() throws Exception;
    }

    /**
     * What the call failed with: the first refusal among its causes (an authorization or authentication error), else
     * what it threw; an error if it succeeded.
     */
    public static Throwable refusal(Call call) {
        try {
            call.run();
        } catch (Throwable e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof AuthorizationException || cause instanceof AuthenticationException) {
                    return cause;
                }
            }
            return e;
        }
        throw new AssertionError("the call succeeded");
    }

    /** Sends one record to {@code topic} and waits for the broker's answer. */
    public static void produce(Map<String, Object> settings, String topic) throws Exception {
        Map<String, Object> config = new HashMap<>(settings);
        // Not idempotent: a user that may write no topic at all would be refused a producer id first (a refusal of
        // the cluster's); this way every refusal is the topic's own.
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.ACKS_CONFIG, "1");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, "k" + Ids.newId(), new byte[0])).get(20, TimeUnit.SECONDS);
        }
    }

    /** Joins {@code group} on the users' topic and polls for 20 s, unless refused first. */
    public static void consumeAsGroup(Map<String, Object> settings, String group) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.USERS));
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < until) {
                consumer.poll(Duration.ofMillis(500));
            }
        }
    }
}
