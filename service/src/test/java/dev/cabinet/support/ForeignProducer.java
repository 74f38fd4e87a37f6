package dev.cabinet.support;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.zip.CRC32;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Writes events the way another service would: a plain Kafka producer and hand-written CloudEvents, in binary mode
 * ({@code ce_} headers) or structured mode (the whole event as the JSON value).
 */
public final class ForeignProducer {

    private ForeignProducer() {
    }

    /** Sends one event in binary mode and waits for the broker's acknowledgement. */
    public static void produce(String topic, String key, String eventId, String type, String json) throws Exception {
        send(topic, key, json, List.of(
                header("ce_specversion", "1.0"), header("ce_id", eventId),
                header("ce_source", "/another-service"), header("ce_type", type), header("ce_subject", key),
                header("content-type", "application/json")));
    }

    /**
     * Sends one event in binary mode to the partition that librdkafka's default partitioner ({@code consistent_random},
     * as in kcat, Python, Go and .NET clients) gives the key: CRC32 of its bytes modulo the topic's partitions.
     */
    public static void produceAsLibrdkafka(String topic, int partitions, String key, String eventId, String type,
            String json) throws Exception {
        send(topic, crc32Partition(key, partitions), key, json, List.of(
                header("ce_specversion", "1.0"), header("ce_id", eventId),
                header("ce_source", "/another-service"), header("ce_type", type), header("ce_subject", key),
                header("content-type", "application/json")));
    }

    /** librdkafka's {@code consistent} partitioning of a key: CRC32 of its bytes modulo the partitions. */
    public static int crc32Partition(String key, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }

    /** Sends one event in structured mode: {@code event} is the whole CloudEvent as JSON, the only header its type. */
    public static void produceStructured(String topic, String key, String event) throws Exception {
        produceStructured(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class), topic, key,
                event);
    }

    /** The same, to the broker at {@code bootstrapServers}. */
    public static void produceStructured(String bootstrapServers, String topic, String key, String event)
            throws Exception {
        send(bootstrapServers, topic, null, key, event,
                List.of(header("content-type", "application/cloudevents+json; charset=UTF-8")));
    }

    private static void send(String topic, String key, String value, List<Header> headers) throws Exception {
        send(topic, null, key, value, headers);
    }

    private static void send(String topic, Integer partition, String key, String value, List<Header> headers)
            throws Exception {
        send(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class), topic, partition, key, value,
                headers);
    }

    private static void send(String bootstrapServers, String topic, Integer partition, String key, String value,
            List<Header> headers) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
                new ByteArraySerializer())) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(topic, partition, key, bytes, headers)).get();
        }
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
