package dev.cabinet.projection;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Ids;
import io.quarkus.test.junit.QuarkusTest;

/** Records written by another producer than Cabinet's API, with a plain Kafka producer. */
@QuarkusTest
class ForeignRecordsTest {

    @Test
    void aWellFormedEventFromAnotherProducerIsProjected() throws Exception {
        String id = newUserId();
        produce(id, "cabinet.user.registered.v1", "{\"userId\":\"" + id + "\",\"name\":\"Ext\",\"email\":\"ext@example.com\","
                + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}");
        awaitOk("/users/" + id).body("name", equalTo("Ext")).body("registeredAt", equalTo("2026-01-01T00:00:00.000Z"));
    }

    @Test
    void unknownTypesAndUnreadableEventsAreCountedAndSkippedWhileTheirKeyKeepsFlowing() throws Exception {
        double unknownBefore = skipped("unknown-type");
        double undecodableBefore = skipped("undecodable");
        String id = newUserId();
        produce(id, "cabinet.user.teleported.v1", "{\"userId\":\"" + id + "\"}");
        produce(id, "cabinet.user.registered.v1", "{not json");
        produce(id, "cabinet.user.registered.v1", "{\"userId\":\"" + id + "\"}");
        produce(id, "cabinet.user.registered.v1", "{\"userId\":\"" + id + "\",\"name\":\"After\",\"email\":\"a@example.com\","
                + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}");

        awaitOk("/users/" + id).body("name", equalTo("After"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            assertTrue(skipped("unknown-type") >= unknownBefore + 1);
            assertTrue(skipped("undecodable") >= undecodableBefore + 2);
        });
    }

    @Test
    void eventsBeyondTheCommandsBoundsAreSkippedAsUnreadableAndTheKeyKeepsFlowing() throws Exception {
        double undecodableBefore = skipped("undecodable");
        String author = newUserId();
        register(author, "Bounds");
        String postId = "p" + Ids.newId();
        produce(Topics.POSTS, postId, "cabinet.post.created.v1", postCreated(postId, author, "x".repeat(20_001),
                "2026-01-01T00:00:00.000Z"));
        produce(Topics.POSTS, postId, "cabinet.post.created.v1", postCreated(postId, author, "body", "2026-01-01"));
        produce(Topics.POSTS, postId, "cabinet.post.created.v1", postCreated(postId, author, "body",
                "2026-01-01T00:00:00.000Z"));

        awaitOk("/posts/" + postId).body("body", equalTo("body"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertTrue(skipped("undecodable") >= undecodableBefore + 2));
    }

    private static String postCreated(String postId, String authorId, String body, String createdAt) {
        return "{\"postId\":\"" + postId + "\",\"authorId\":\"" + authorId + "\",\"title\":\"T\",\"body\":\"" + body
                + "\",\"createdAt\":\"" + createdAt + "\"}";
    }

    private static void produce(String key, String type, String json) throws Exception {
        produce(Topics.USERS, key, type, json);
    }

    private static void produce(String topic, String key, String type, String json) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
                new ByteArraySerializer())) {
            List<RecordHeader> headers = List.of(
                    header("ce_specversion", "1.0"), header("ce_id", "ext-" + System.nanoTime()),
                    header("ce_source", "/another-service"), header("ce_type", type), header("ce_subject", key),
                    header("content-type", "application/json"));
            producer.send(new ProducerRecord<>(topic, null, key, json.getBytes(StandardCharsets.UTF_8),
                    List.copyOf(headers))).get();
        }
    }

    private static RecordHeader header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /** The skip counter as Prometheus shows it on /q/metrics. */
    private static double skipped(String reason) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines()
                .filter(l -> l.startsWith("cabinet_projection_skipped_total") && l.contains("reason=\"" + reason + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
