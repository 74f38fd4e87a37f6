package dev.cabinet.baseline;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.event.Observes;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The projector a user would write first: one unconditional PutItem per event (its top-level fields under the
 * record's key and type), up to {@code baseline.projector.concurrency} in flight, offsets committed after each
 * polled batch is written. No per-key order, no exactly-once, no version guard: what Cabinet's projector is measured
 * against. Started by POST /naive/start; counts what it applied at GET /naive/applied.
 */
@ApplicationScoped
@Path("/naive")
public class NaiveProjector {

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "baseline.projector.topics")
    java.util.Optional<List<String>> topics;

    @ConfigProperty(name = "baseline.projector.table")
    String table;

    @ConfigProperty(name = "baseline.projector.concurrency")
    int concurrency;

    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private Thread loop;

    /** Starts reading the topics from their beginning (once), so the benchmark times the replay from a ready JVM. */
    @POST
    @Path("start")
    public synchronized void start() {
        if (loop == null && topics.isPresent() && !topics.get().isEmpty()) {
            loop = new Thread(this::project, "naive-projector");
            loop.start();
        }
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        running.set(false);
        if (loop != null) {
            loop.join(10_000);
        }
    }

    /** Events written so far and writes that failed. */
    @GET
    @Path("applied")
    public Map<String, Long> applied() {
        return Map.of("applied", applied.get(), "failed", failed.get());
    }

    private void project() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-naive");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        Semaphore inFlight = new Semaphore(concurrency);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(topics.get());
            while (running.get()) {
                var records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, byte[]> record : records) {
                    inFlight.acquireUninterruptibly();
                    dynamo.putItem(b -> b.tableName(table).item(item(record))).whenComplete((ignored, failure) -> {
                        inFlight.release();
                        (failure == null ? applied : failed).incrementAndGet();
                    });
                }
                if (!records.isEmpty()) {
                    inFlight.acquireUninterruptibly(concurrency);
                    inFlight.release(concurrency);
                    consumer.commitSync();
                }
            }
        }
    }

    private Map<String, AttributeValue> item(ConsumerRecord<String, byte[]> record) {
        Map<String, AttributeValue> item = new HashMap<>();
        Header type = record.headers().lastHeader("ce_type");
        item.put("pk", AttributeValue.fromS("NAIVE#" + record.key()));
        item.put("sk", AttributeValue.fromS(type == null ? "EVENT" : new String(type.value(), StandardCharsets.UTF_8)));
        try {
            JsonNode event = json.readTree(record.value());
            event.fields().forEachRemaining(field -> {
                if (!field.getKey().equals("pk") && !field.getKey().equals("sk")) {
                    item.put(field.getKey(), AttributeValue.fromS(field.getValue().isTextual()
                            ? field.getValue().asText() : field.getValue().toString()));
                }
            });
        } catch (java.io.IOException e) {
            item.put("raw", AttributeValue.fromS(new String(record.value(), StandardCharsets.UTF_8)));
        }
        return item;
    }
}
