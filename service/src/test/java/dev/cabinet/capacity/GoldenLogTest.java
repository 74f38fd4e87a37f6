package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The golden log (issue 40, item 2): a committed file of Kafka records, every event type and every version Cabinet has
 * ever written, in both CloudEvents modes, replayed through the real decoder (envelope, schema, upcast) and the
 * current projectors into a store in memory; the read model it makes is committed beside it. A change that stops an
 * old record from reading fails here; a change of what the projectors make shows up as a diff of
 * {@code read-model.json} to review, regenerated with {@code -Dcabinet.docs.write=true}. The log itself is only ever
 * appended to: {@code -Dcabinet.golden.append=true} adds, once, records of each type and mode it lacks, from the
 * capacity model's scenario, under ids no earlier record uses.
 */
@QuarkusTest
class GoldenLogTest {

    static final Path LOG = Path.of("src", "test", "resources", "golden", "log.jsonl");
    static final Path READ_MODEL = Path.of("src", "test", "resources", "golden", "read-model.json");
    private static final String BINARY = "binary";
    private static final String STRUCTURED = "structured";
    /** Bookkeeping of the exactly-once protocol, not the read model: packed, and its bytes are the JDK's deflate. */
    private static final Set<String> BOOKKEEPING = Set.of(Attributes.PENDING_STEPS, Attributes.RECENT_EVENT_IDS,
            TableWriter.PENDING_COUNTS);

    @Inject
    CapacityModels models;
    @Inject
    ObjectMapper json;

    @Test
    void everyEventTypeAndVersionIsInTheGoldenLogInBothModes() throws IOException {
        if (Boolean.getBoolean("cabinet.golden.append")) {
            appendMissing();
        }
        Set<String> missing = new TreeSet<>();
        Set<String> present = presentTypesAndModes(lines());
        for (String type : models.typeNames()) {
            for (String mode : List.of(BINARY, STRUCTURED)) {
                if (!present.contains(type + " " + mode)) {
                    missing.add(type + " " + mode);
                }
            }
        }
        assertEquals(Set.of(), missing, "event types and modes missing from " + LOG + " (add them once with "
                + "-Dcabinet.golden.append=true, then regenerate the read model with -Dcabinet.docs.write=true)");
    }

    @Test
    void theGoldenLogReplaysIntoTheCommittedReadModel() throws IOException {
        ModelStore store = new ModelStore();
        ModelProjection projector = models.projection(store);
        List<JsonNode> lines = lines();
        assertTrue(lines.size() > 0, LOG + " holds records");
        long offset = 0;
        for (JsonNode line : lines) {
            drive(store, projector.apply(record(line, offset++), json));
            drive(store, Uni.createFrom().completionStage(projector::settle));
        }
        String readModel = json.copy().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(readModel(store.items())) + "\n";
        if (Boolean.getBoolean("cabinet.docs.write")) {
            Files.writeString(READ_MODEL, readModel, StandardCharsets.UTF_8);
        }
        assertEquals(Files.exists(READ_MODEL) ? Files.readString(READ_MODEL, StandardCharsets.UTF_8) : "", readModel,
                "the golden log no longer makes the committed read model: review the difference, then regenerate "
                        + READ_MODEL + " with -Dcabinet.docs.write=true");
    }

    /** Runs the work over the model store, which answers the calls waiting, one round at a time, when told to. */
    private static void drive(ModelStore store, Uni<Void> work) {
        CompletableFuture<Void> done = work.subscribeAsCompletionStage();
        while (!done.isDone()) {
            if (!store.round()) {
                throw new IllegalStateException("the work waits for something other than the store");
            }
        }
        done.join();
    }

    /** Every item by key, its attributes by name, bookkeeping left out; values as DynamoDB's JSON writes them. */
    private ObjectNode readModel(Map<Key, Map<String, AttributeValue>> items) {
        ObjectNode model = json.createObjectNode();
        items.entrySet().stream().sorted(Comparator.comparing((Map.Entry<Key, ?> item) -> item.getKey().pk())
                .thenComparing(item -> item.getKey().sk())).forEach(item -> {
                    ObjectNode attributes = model.putObject(item.getKey().toString());
                    new TreeMap<>(item.getValue()).forEach((name, value) -> {
                        if (!BOOKKEEPING.contains(name)) {
                            attributes.set(name, ModelProjection.json(value));
                        }
                    });
                });
        return model;
    }

    /** A line of the golden log as the Kafka record it was, at {@code offset} of partition 0. */
    private static ConsumerRecord<String, byte[]> record(JsonNode line, long offset) {
        RecordHeaders headers = new RecordHeaders();
        line.get("headers").fields().forEachRemaining(header -> headers.add(new RecordHeader(header.getKey(),
                header.getValue().asText().getBytes(StandardCharsets.UTF_8))));
        byte[] value = line.get("value").asText().getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(line.get("topic").asText(), 0, offset, 0L, TimestampType.CREATE_TIME,
                value.length, value.length, line.get("key").asText(), value, headers, java.util.Optional.empty());
    }

    private List<JsonNode> lines() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        if (Files.exists(LOG)) {
            for (String line : Files.readAllLines(LOG, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    lines.add(json.readTree(line));
                }
            }
        }
        return lines;
    }

    private static Set<String> presentTypesAndModes(List<JsonNode> lines) {
        Set<String> present = new TreeSet<>();
        for (JsonNode line : lines) {
            JsonNode headers = line.get("headers");
            if (headers.has(CloudEventHeaders.TYPE)) {
                present.add(headers.get(CloudEventHeaders.TYPE).asText() + " " + BINARY);
            } else {
                present.add(line.get("type").asText() + " " + STRUCTURED);
            }
        }
        return present;
    }

    /**
     * Appends, for each type and mode the log lacks, the scenario's events of that type written in that mode (the
     * structured ones with ids of their own, so that they are events of other aggregates); the superseded
     * order-placed v1 is written by hand, as an old producer did.
     */
    private void appendMissing() throws IOException {
        List<JsonNode> lines = lines();
        Set<String> present = presentTypesAndModes(lines);
        List<String> added = new ArrayList<>();
        for (String mode : List.of(BINARY, STRUCTURED)) {
            long[] sequence = {0};
            // The first generation's ids, or ids of a generation of their own (named by the log's length): records
            // added later never reuse an aggregate or an event id of the log, which would replay as a duplicate.
            String generation = lines.isEmpty() ? "8" : Long.toString(lines.size(), 32).toUpperCase();
            String prefix = "01M" + generation + (mode.equals(BINARY) ? "Y" : "Z");
            Set<String> wanted = new TreeSet<>();
            models.typeNames().stream().filter(type -> !present.contains(type + " " + mode)).forEach(wanted::add);
            if (wanted.isEmpty()) {
                continue;
            }
            for (Scenario.Step step : Scenario.steps(() -> {
                sequence[0]++;
                String digits = Long.toString(sequence[0], 32).toUpperCase();
                return prefix + "0".repeat(21 - digits.length()) + digits;
            })) {
                // The first generation is the whole scenario (its events need their aggregates); a later one adds the
                // new types' records alone, whose aggregates its fresh ids leave to be created later (as a replay
                // may find them): a type that cannot be applied so needs the steps it depends on added here.
                if (lines.isEmpty() || wanted.contains(step.type().name())) {
                    added.add(line(step.type(), json.valueToTree(step.data()), step.data().aggregateId(),
                            step.actor(), prefix + "E" + added.size(), mode));
                }
            }
            if (wanted.contains("cabinet.customer.order-placed.v1")) {
                String customer = "C" + prefix + "OLD";
                ObjectNode registered = json.createObjectNode().put("customerId", customer).put("name", "Ada")
                        .put("email", "ada@example.com");
                added.add(line("cabinet.customer.registered.v1", "cabinet.customers", registered, customer, "old-shop",
                        prefix + "V1A", mode));
                ObjectNode order = json.createObjectNode().put("customerId", customer).put("orderId", "O" + prefix + "V1")
                        .put("orderDate", "2025-01-31").put("placedAt", "2025-01-31T09:00:00.000Z").put("total", 129.9);
                added.add(line("cabinet.customer.order-placed.v1", "cabinet.customers", order, customer, "old-shop",
                        prefix + "V1B", mode));
            }
        }
        Files.createDirectories(LOG.getParent());
        Files.writeString(LOG, String.join("\n", added) + "\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    private String line(EventType<?> type, JsonNode data, String key, String actor, String id, String mode)
            throws IOException {
        return line(type.name(), type.topic(), data, key, actor, id, mode);
    }

    private String line(String type, String topic, JsonNode data, String key, String actor, String id, String mode)
            throws IOException {
        ObjectNode line = json.createObjectNode().put("topic", topic).put("key", key);
        ObjectNode headers = line.putObject("headers");
        String time = "2026-06-01T10:00:00.000Z";
        if (mode.equals(BINARY)) {
            headers.put(CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.SPEC_VERSION_1_0).put(CloudEventHeaders.ID, id)
                    .put(CloudEventHeaders.SOURCE, "/cabinet").put(CloudEventHeaders.TYPE, type)
                    .put(CloudEventHeaders.TIME, time).put(CloudEventHeaders.SUBJECT, key)
                    .put(CloudEventHeaders.ACTOR, actor).put(CloudEventHeaders.CONTENT_TYPE, CloudEventHeaders.JSON);
            line.put("value", json.writeValueAsString(data));
        } else {
            headers.put(CloudEventHeaders.CONTENT_TYPE, CloudEventHeaders.STRUCTURED + "; charset=UTF-8");
            ObjectNode event = json.createObjectNode().put("specversion", "1.0").put("id", id)
                    .put("source", "/another-service").put("type", type).put("subject", key).put("time", time)
                    .put("actor", actor).put("datacontenttype", "application/json");
            event.set("data", data);
            line.put("type", type);
            line.put("value", json.writeValueAsString(event));
        }
        return json.writeValueAsString(line);
    }
}
