package dev.cabinet.crash;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.shared.Ids;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A blue/green rebuild with the packaged application: the live ("blue") instance serves and projects a workload with
 * renames, deletions, a poison record and a kill (redeliveries); a second process ("green") replays the whole log into
 * a new table with a consumer group of its own, is killed once mid-replay, and catches up while the live side keeps
 * changing. The operator's verification then finds the tables equal item by item (and finds the one item changed
 * behind its back), and the cut-over switches reads to the new table without stopping anything.
 */
class RebuildIT {

    private static final String GREEN = "cabinet-rebuild-green";

    private static ProcessHarness harness;
    private static AppProcess blue;
    private static CrashClient client;

    @BeforeAll
    static void startBlue() throws Exception {
        harness = new ProcessHarness("rebuild-it");
        blue = harness.app("blue", Map.of());
        blue.start();
        client = harness.client(blue);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aTableRebuiltFromTheLogEqualsTheLiveOneItemByItemAndTakesOverReadsWithoutDowntime() throws Exception {
        List<String> users = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String user = "u" + Ids.newId();
            client.applied("PUT", "/users/" + user, user, Map.of("name", "User " + i, "email", user + "@example.com"));
            users.add(user);
        }
        String group = client.applied("POST", "/groups", users.get(0), Map.of("name", "Rebuilders")).get("id").asText();
        for (String user : users.subList(1, 4)) {
            client.applied("PUT", "/groups/" + group + "/members/" + user, user, null);
        }
        List<String> posts = new ArrayList<>();
        Map<String, String> authorOf = new HashMap<>();
        for (String user : users) {
            for (int i = 0; i < 2; i++) {
                String post = client.applied("POST", "/posts", user, Map.of("title", "T" + i, "body", "B" + i))
                        .get("id").asText();
                posts.add(post);
                authorOf.put(post, user);
            }
            client.applied("POST", "/posts/" + posts.get(posts.size() - 2) + "/publish", user, null);
        }
        List<String[]> comments = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String user = users.get(i % users.size());
            String post = posts.get(i % posts.size());
            comments.add(new String[] { post, user, client.send("POST", "/posts/" + post + "/comments", user,
                    Map.of("text", "comment " + i)).body().get("id").asText() });
        }
        // An order: its id's reservation is in the live table only, which the comparison must leave out.
        String customer = "C" + Ids.newId();
        client.applied("PUT", "/customers/" + customer, users.get(0), Map.of("name", "Shop", "email",
                "shop@example.com"));
        client.applied("POST", "/customers/" + customer + "/orders", users.get(0), Map.of("orderId",
                "O" + Ids.newId(), "total", "9.99"));
        String poisoned = "u" + Ids.newId();
        producePoison(poisoned);

        blue.kill();   // what it had not committed is delivered again
        blue.start();

        client.applied("PATCH", "/users/" + users.get(0), users.get(0), Map.of("name", "Renamed Zero"));
        client.applied("PATCH", "/users/" + users.get(1), users.get(1), Map.of("name", "Renamed One"));
        client.applied("PATCH", "/groups/" + group, users.get(0), Map.of("name", "Rebuilt"));
        client.applied("DELETE", "/posts/" + comments.get(0)[0] + "/comments/" + comments.get(0)[2], comments.get(0)[1],
                null);
        client.applied("DELETE", "/posts/" + comments.get(5)[0] + "/comments/" + comments.get(5)[2], comments.get(5)[1],
                null);
        String deleted = posts.get(7);
        client.applied("DELETE", "/posts/" + deleted, authorOf.get(deleted), null);
        client.applied("PATCH", "/posts/" + posts.get(2), authorOf.get(posts.get(2)), Map.of("title", "Edited"));
        client.applied("DELETE", "/groups/" + group + "/members/" + users.get(3), users.get(3), null);

        // The live projector dead-letters the poison at least once: a kill between the copy and the park repeats the
        // copy on redelivery. Once its key is parked no copy follows, so what is counted now is the live side's.
        String poisonStream = new LogKey(Topics.USERS, 0, poisoned).id();
        await("the live projector parked the poison's key").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> client.asOperator("GET", "/admin/parked-keys/" + poisonStream).status() == 200);
        long liveDeadLetters = deadLettersOf(poisoned);
        assertTrue(liveDeadLetters >= 1, "the poison record was dead-lettered");

        // A rebuild's projector under the live projector's group would take partitions from it: it does not start.
        AppProcess stray = harness.app("stray", Map.of("cabinet.role", "projector",
                "cabinet.table.projection-target", GREEN));
        assertThrows(RuntimeException.class, stray::start, "the stray projector started");
        String strayLog = Files.readString(stray.currentLog());
        assertTrue(strayLog.contains("consumer group cabinet-projector has committed offsets"), strayLog);

        AppProcess green = harness.app("green", Map.of("cabinet.role", "projector",
                "cabinet.table.projection-target", GREEN,
                "mp.messaging.incoming.events.group.id", "cabinet-projector-green"));
        green.start();
        green.kill();   // mid-replay: the candidate's projector gets redeliveries too
        green.start();

        for (int i = 0; i < 10; i++) {
            String post = posts.get(i % 6);
            client.applied("POST", "/posts/" + post + "/comments", users.get(i % 4), Map.of("text", "while rebuilding"));
        }
        client.applied("PATCH", "/users/" + users.get(2), users.get(2), Map.of("name", "Renamed Two"));

        await("the rebuilt table catches up").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> client.asOperator("GET", "/admin/rebuilds/" + GREEN).body().path("caughtUp").asBoolean());

        JsonNode verification = verify();
        assertTrue(verification.get("equal").asBoolean(), "differences: " + verification);
        long liveComments = comments.stream().filter(c -> !c[0].equals(deleted)).count() - 2 + 10;
        long atLeast = users.size() + 2L * (posts.size() - 1) + liveComments;   // profiles, post and user-post items
        assertTrue(verification.get("compared").asLong() >= atLeast,
                "compared " + verification.get("compared") + " items, expected at least " + atLeast);

        try (DynamoDbClient dynamo = harness.dynamo()) {
            Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("POST#" + posts.get(2)),
                    "sk", AttributeValue.fromS("METADATA"));
            Map<String, AttributeValue> original = dynamo.getItem(b -> b.tableName(GREEN).key(key)).item();
            Map<String, AttributeValue> changed = new HashMap<>(original);
            changed.put("title", AttributeValue.fromS("Changed behind the projector's back"));
            dynamo.putItem(b -> b.tableName(GREEN).item(changed));
            JsonNode found = verify();
            assertFalse(found.get("equal").asBoolean());
            assertEquals(1, found.get("differenceCount").asLong(), found.toString());
            assertEquals("POST#" + posts.get(2), found.at("/differences/0/pk").asText());
            assertEquals("title", found.at("/differences/0/attributes/0").asText());
            assertEquals(409, client.asOperator("POST", "/admin/rebuilds/" + GREEN + "/cut-over").status(),
                    "a table that differs is never cut over to");
            dynamo.putItem(b -> b.tableName(GREEN).item(original));
        }

        assertEquals(liveDeadLetters, deadLettersOf(poisoned),
                "the rebuild sent the poison record to the dead letters again");
        CrashClient.Answer cutOver = client.asOperator("POST", "/admin/rebuilds/" + GREEN + "/cut-over");
        assertEquals(200, cutOver.status(), cutOver.body().toString());
        assertEquals(GREEN, cutOver.body().get("active").asText());
        assertEquals(GREEN, client.asOperator("GET", "/admin/rebuilds/" + GREEN).body().get("active").asText());

        String onlyInGreen = "u" + Ids.newId();
        try (DynamoDbClient dynamo = harness.dynamo()) {
            dynamo.putItem(b -> b.tableName(GREEN).item(Map.of("pk", AttributeValue.fromS("USER#" + onlyInGreen),
                    "sk", AttributeValue.fromS("PROFILE"), "type", AttributeValue.fromS("UserProfile"),
                    "userId", AttributeValue.fromS(onlyInGreen), "name", AttributeValue.fromS("Green"),
                    "registeredAt", AttributeValue.fromS("2026-01-01T00:00:00.000Z"))));
        }
        assertEquals("Green", client.get("/users/" + onlyInGreen).get("name").asText(), "reads go to the new table");
        client.applied("PATCH", "/users/" + users.get(0), users.get(0), Map.of("name", "After cut-over"));
        assertEquals("After cut-over", client.get("/users/" + users.get(0)).get("name").asText());
        assertProductionLogsAreJsonWithoutSecrets();
    }

    /** Production logs: one JSON object per line, and never a bearer token or the cursor-signing key. */
    private static void assertProductionLogsAreJsonWithoutSecrets() throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<Path> logs;
        try (var files = Files.list(harness.dir)) {
            logs = files.filter(f -> f.getFileName().toString().matches("(blue|green)-\\d+\\.log")).toList();
        }
        assertFalse(logs.isEmpty(), "no application log in " + harness.dir);
        long lines = 0;
        for (Path log : logs) {
            for (String line : Files.readAllLines(log)) {
                if (line.isBlank() || !line.startsWith("{")) {
                    // The JVM's own warnings come before logging starts; everything the application logs is JSON.
                    assertFalse(line.contains(" INFO ") || line.contains(" WARN ") || line.contains(" ERROR "),
                            log + " has a plain-text log line: " + line);
                    continue;
                }
                JsonNode entry = json.readTree(line);
                assertTrue(entry.has("level") && entry.has("message"), log + ": " + line);
                lines++;
                for (String token : client.tokensSent()) {
                    assertFalse(line.contains(token), log + " contains a bearer token");
                }
                assertFalse(line.contains(ProcessHarness.CURSOR_SECRET), log + " contains the cursor-signing key");
            }
        }
        assertTrue(lines > 20, "only " + lines + " JSON log lines");
    }

    private static JsonNode verify() {
        CrashClient.Answer answer = client.asOperator("POST", "/admin/rebuilds/" + GREEN + "/verify");
        assertEquals(200, answer.status(), answer.body().toString());
        return answer.body();
    }

    private static void producePoison(String key) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, harness.broker.bootstrapServers());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.USERS, null, key, "{not json".getBytes(StandardCharsets.UTF_8),
                    List.of(new RecordHeader("ce_id", Ids.newId().getBytes(StandardCharsets.UTF_8)),
                            new RecordHeader("ce_type", "cabinet.user.registered.v1".getBytes(StandardCharsets.UTF_8)))))
                    .get();
        }
    }

    private static long deadLettersOf(String key) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, harness.broker.bootstrapServers());
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.DEAD_LETTERS).stream()
                    .map(p -> new TopicPartition(Topics.DEAD_LETTERS, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long count = 0;
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    count += key.equals(record.key()) ? 1 : 0;
                }
            }
            return count;
        }
    }
}
