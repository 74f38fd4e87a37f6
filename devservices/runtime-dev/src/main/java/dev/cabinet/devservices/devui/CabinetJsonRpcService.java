package dev.cabinet.devservices.devui;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.cabinet.devservices.LoggedEventReader;
import io.smallrye.common.annotation.Blocking;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The Cabinet Dev UI page's JSON-RPC service (dev mode only): item collections read by key condition, the newest
 * records of each topic, the projector's lag, and the product's own outcome and operator endpoints called over HTTP, so
 * retry and discard go through exactly what an operator uses.
 */
public class CabinetJsonRpcService {

    /** What may name a partition-key attribute or an index: the key plan's generic names. */
    private static final Pattern ATTRIBUTE = Pattern.compile("[a-z][a-z0-9]{0,31}");
    /** Ids as the product accepts them in paths (event ids, parked key ids). */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final int RECENT = 12;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final DynamoDbAsyncClient dynamo;
    /** The application's way of reading its records (upcast, sealed values opened), if it offers one. */
    private final Instance<LoggedEventReader> reader;
    private final Config config = ConfigProvider.getConfig();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Map<String, String>> recentPartitions = new ArrayList<>();
    private KafkaConsumer<byte[], byte[]> consumer;
    private Admin admin;
    private String operatorToken;
    private Instant operatorTokenExpires = Instant.EPOCH;

    @Inject
    public CabinetJsonRpcService(DynamoDbAsyncClient dynamo, Instance<LoggedEventReader> reader) {
        this.dynamo = dynamo;
        this.reader = reader;
    }

    // --- item collections ------------------------------------------------------------------------------------------

    /**
     * One page of the item collection {@code partitionKey} in the table ({@code indexName} empty) or a GSI, in
     * sort-key order: a Query on the partition key alone, never a Scan.
     */
    @Blocking
    public Map<String, Object> query(String indexName, String pkAttribute, String partitionKey, String cursor,
            int limit) throws Exception {
        if (!ATTRIBUTE.matcher(pkAttribute).matches() || !(indexName == null || indexName.isEmpty()
                || ATTRIBUTE.matcher(indexName).matches())) {
            throw new IllegalArgumentException("unknown index or key attribute");
        }
        if (partitionKey == null || partitionKey.isBlank()) {
            throw new IllegalArgumentException("enter a partition key");
        }
        QueryRequest.Builder request = QueryRequest.builder()
                .tableName(table())
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", pkAttribute))
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partitionKey)))
                .scanIndexForward(true)
                .limit(Math.max(1, Math.min(limit, 100)));
        if (indexName != null && !indexName.isEmpty()) {
            request.indexName(indexName);
        }
        if (cursor != null && !cursor.isEmpty()) {
            request.exclusiveStartKey(Cursors.decode(cursor));
        }
        QueryResponse response = dynamo.query(request.build()).get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        List<Map<String, Object>> items = response.items().stream().map(CabinetJsonRpcService::plain).toList();
        if (!items.isEmpty()) {
            remember(indexName == null ? "" : indexName, pkAttribute, partitionKey);
        }
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("table", table());
        page.put("items", items);
        page.put("next", response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? Cursors.encode(response.lastEvaluatedKey()) : null);
        return page;
    }

    /** The partition keys queried lately that held items, newest first. */
    public synchronized List<Map<String, String>> recentPartitions() {
        return List.copyOf(recentPartitions);
    }

    private synchronized void remember(String indexName, String pkAttribute, String partitionKey) {
        Map<String, String> entry = Map.of("indexName", indexName, "pkAttribute", pkAttribute, "partitionKey",
                partitionKey);
        recentPartitions.remove(entry);
        recentPartitions.add(0, entry);
        while (recentPartitions.size() > RECENT) {
            recentPartitions.remove(recentPartitions.size() - 1);
        }
    }

    private String table() {
        return config.getOptionalValue("cabinet.table.name", String.class).orElse("cabinet");
    }

    // --- the log and the projection ----------------------------------------------------------------------------------

    /** The newest records of each event topic and of the dead-letter topic, newest first, at most {@code perTopic}. */
    @Blocking
    public synchronized Map<String, Object> newestEvents(int perTopic) {
        int wanted = Math.max(1, Math.min(perTopic, 50));
        KafkaConsumer<byte[], byte[]> kafka = consumer();
        List<TopicPartition> partitions = partitionsOf(kafka, topics());
        kafka.assign(partitions);
        Map<TopicPartition, Long> ends = kafka.endOffsets(partitions, CALL_TIMEOUT);
        Map<TopicPartition, Long> begins = kafka.beginningOffsets(partitions, CALL_TIMEOUT);
        for (TopicPartition partition : partitions) {
            kafka.seek(partition, Math.max(begins.get(partition), ends.get(partition) - wanted));
        }
        Map<String, List<Map<String, Object>>> byTopic = new TreeMap<>();
        topics().forEach(topic -> byTopic.put(topic, new ArrayList<>()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (partitions.stream().anyMatch(p -> kafka.position(p) < ends.get(p)) && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : kafka.poll(Duration.ofMillis(200))) {
                if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                    byTopic.get(record.topic()).add(describe(record));
                }
            }
        }
        byTopic.values().forEach(records -> {
            records.sort(Comparator.comparing((Map<String, Object> r) -> (Long) r.get("timestamp")).reversed());
            if (records.size() > wanted) {
                records.subList(wanted, records.size()).clear();
            }
        });
        return Map.of("topics", byTopic);
    }

    /** Per partition of each event topic: the log's end, the projector group's committed offset, and the lag. */
    @Blocking
    public synchronized List<Map<String, Object>> projectionLag() throws Exception {
        String group = config.getOptionalValue("mp.messaging.incoming.events.group.id", String.class)
                .orElse("cabinet-projector");
        List<TopicPartition> partitions = partitionsOf(consumer(), eventTopics());
        Map<TopicPartition, Long> ends = consumer().endOffsets(partitions, CALL_TIMEOUT);
        Map<TopicPartition, OffsetAndMetadata> committed = admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            long end = ends.get(partition);
            OffsetAndMetadata at = committed.get(partition);
            long position = at == null ? 0 : at.offset();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("topic", partition.topic());
            row.put("partition", partition.partition());
            row.put("end", end);
            row.put("committed", at == null ? null : position);
            row.put("lag", Math.max(0, end - position));
            rows.add(row);
        }
        rows.sort(Comparator.comparing((Map<String, Object> r) -> (String) r.get("topic"))
                .thenComparing(r -> (Integer) r.get("partition")));
        return rows;
    }

    private List<String> eventTopics() {
        return config.getOptionalValues("mp.messaging.incoming.events.topics", String.class).orElse(List.of());
    }

    private List<String> topics() {
        List<String> topics = new ArrayList<>(eventTopics());
        config.getOptionalValue("mp.messaging.outgoing.dead-letters.topic", String.class).ifPresent(topics::add);
        return topics;
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<byte[], byte[]> kafka, Collection<String> topics) {
        Map<String, List<PartitionInfo>> existing = kafka.listTopics(CALL_TIMEOUT);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            for (PartitionInfo info : existing.getOrDefault(topic, List.of())) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
        }
        return partitions;
    }

    private Map<String, Object> describe(ConsumerRecord<byte[], byte[]> record) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("topic", record.topic());
        event.put("partition", record.partition());
        event.put("offset", record.offset());
        event.put("timestamp", record.timestamp());
        event.put("key", record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8));
        Map<String, String> headers = new TreeMap<>();
        for (Header header : record.headers()) {
            if (header.value() != null && !header.key().equals("traceparent") && !header.key().equals("tracestate")) {
                headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        // CloudEvents' Kafka binding (binary mode): the attributes are ce_* headers.
        event.put("id", headers.get("ce_id"));
        event.put("type", headers.get("ce_type"));
        event.put("time", headers.get("ce_time"));
        event.put("subject", headers.get("ce_subject"));
        event.put("headers", headers);
        event.put("data", record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8));
        event.put("read", asRead(record));
        return event;
    }

    /** The event as the application's projectors read it, when the application says how; else null. */
    private Map<String, Object> asRead(ConsumerRecord<byte[], byte[]> record) {
        if (!reader.isResolvable() || record.value() == null) {
            return null;
        }
        Map<String, byte[]> headers = new LinkedHashMap<>();
        record.headers().forEach(header -> headers.put(header.key(), header.value()));
        LoggedEventReader.Reading reading = reader.get().read(record.topic(), record.partition(), record.offset(),
                record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8), headers, record.value());
        Map<String, Object> read = new LinkedHashMap<>();
        read.put("type", reading.type());
        read.put("data", reading.data());
        read.put("problem", reading.problem());
        return read;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            Properties properties = kafkaProperties();
            properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "cabinet-dev-ui");
            // No group: partitions are assigned by hand, so the Dev UI never joins or disturbs the projector's group.
            consumer = new KafkaConsumer<>(properties);
        }
        return consumer;
    }

    private Admin admin() {
        if (admin == null) {
            Properties properties = kafkaProperties();
            properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "cabinet-dev-ui-admin");
            admin = Admin.create(properties);
        }
        return admin;
    }

    private Properties kafkaProperties() {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                config.getOptionalValue("kafka.bootstrap.servers", String.class).orElse("localhost:9092"));
        return properties;
    }

    @PreDestroy
    synchronized void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(2));
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }

    // --- the product's own endpoints -------------------------------------------------------------------------------

    /** What {@code GET /commands/{eventId}} answers for the event: its status code and body. */
    @Blocking
    public Map<String, Object> outcome(String eventId) throws Exception {
        return call("GET", "/commands/" + id(eventId), false);
    }

    /** {@code GET /admin/parked-keys}, as an operator. */
    @Blocking
    public Map<String, Object> parkedKeys() throws Exception {
        return call("GET", "/admin/parked-keys", true);
    }

    /** {@code GET /admin/parked-keys/{id}}, as an operator: the key with its parked events. */
    @Blocking
    public Map<String, Object> parkedKey(String id) throws Exception {
        return call("GET", "/admin/parked-keys/" + id(id), true);
    }

    /** {@code POST /admin/parked-keys/{id}/retry}, as an operator. */
    @Blocking
    public Map<String, Object> retryParkedKey(String id) throws Exception {
        return call("POST", "/admin/parked-keys/" + id(id) + "/retry", true);
    }

    /** {@code POST /admin/parked-keys/{id}/discard?events=all|first}, as an operator. */
    @Blocking
    public Map<String, Object> discardParkedKey(String id, String events) throws Exception {
        String which = "first".equals(events) ? "first" : "all";
        return call("POST", "/admin/parked-keys/" + id(id) + "/discard?events=" + which, true);
    }

    private static String id(String value) {
        if (value == null || !ID.matcher(value).matches()) {
            throw new IllegalArgumentException("not an id: " + value);
        }
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private Map<String, Object> call(String method, String path, boolean asOperator) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(CALL_TIMEOUT)
                .header("Accept", "application/json")
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (asOperator) {
            request.header("Authorization", "Bearer " + operatorToken());
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("request", method + " " + path);
        answer.put("status", response.statusCode());
        answer.put("body", response.body());
        return answer;
    }

    /**
     * A token with the operator group from the dev-only {@code POST /dev/tokens}, as docs/api.md tells an operator to
     * get one in dev mode; renewed before it expires.
     */
    private synchronized String operatorToken() throws Exception {
        if (operatorToken == null || Instant.now().isAfter(operatorTokenExpires)) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base() + "/dev/tokens")).timeout(CALL_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"sub\":\"dev-ui\",\"groups\":[\"operator\"]}"))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            var matcher = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"").matcher(response.body());
            if (response.statusCode() != 200 || !matcher.find()) {
                throw new IllegalStateException("POST /dev/tokens answered " + response.statusCode());
            }
            operatorToken = matcher.group(1);
            operatorTokenExpires = Instant.now().plus(Duration.ofMinutes(30));
        }
        return operatorToken;
    }

    private String base() {
        int port = config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
        return "http://localhost:" + port;
    }

    // --- values -----------------------------------------------------------------------------------------------------

    /** An item as JSON-friendly values: strings, numbers as their exact text, booleans, lists and maps. */
    static Map<String, Object> plain(Map<String, AttributeValue> item) {
        Map<String, Object> values = new TreeMap<>();
        item.forEach((name, value) -> values.put(name, plain(value)));
        return values;
    }

    private static Object plain(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s();
            case N -> value.n();
            case BOOL -> value.bool();
            case NUL -> null;
            case L -> value.l().stream().map(CabinetJsonRpcService::plain).toList();
            case M -> plain(value.m());
            case SS -> value.ss();
            case NS -> value.ns();
            case B -> "(binary, " + value.b().asByteArray().length + " bytes)";
            default -> value.toString();
        };
    }

    /** Opaque paging cursors: the last evaluated key's string attributes (every key attribute is a string). */
    static final class Cursors {
        private Cursors() {
        }

        static String encode(Map<String, AttributeValue> key) {
            StringBuilder text = new StringBuilder();
            new TreeMap<>(key).forEach((name, value) -> text.append(name).append('\u0000').append(value.s())
                    .append('\u0000'));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(text.toString()
                    .getBytes(StandardCharsets.UTF_8));
        }

        static Map<String, AttributeValue> decode(String cursor) {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\u0000");
            Map<String, AttributeValue> key = new LinkedHashMap<>();
            for (int i = 0; i + 1 < parts.length; i += 2) {
                key.put(parts[i], AttributeValue.fromS(parts[i + 1]));
            }
            return key;
        }
    }
}
