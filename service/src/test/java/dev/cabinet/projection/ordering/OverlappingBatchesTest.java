package dev.cabinet.projection.ordering;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.Api;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.Freezer;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The projector applies a consumer's next batch while the previous ones finish (issue 17): posts' creations held up by a
 * frozen store, their edits received and started in later batches meanwhile, must still apply in order per post, and
 * exactly once, while a second consumer joins the projector's group mid-stream and leaves again (two rebalances, with
 * batches in flight on revoked partitions and their records delivered again to the next owner), before the posts'
 * publications arrive.
 */
@QuarkusTest
class OverlappingBatchesTest {

    @Inject
    MeterRegistry registry;

    @Inject
    TableWriter store;

    private static final int POSTS = 40;

    @Test
    void eachStreamStaysInOrderAndCountsOnceAcrossOverlappingBatchesAndARebalance() throws Exception {
        String author = newUserId();
        register(author, "Overlap");
        // One post through the API, to copy its three records (created, edited, published) for fresh posts.
        String template = createPost(author, "Template");
        as(author).body(Map.of("title", "Template, edited")).patch("/posts/" + template).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> "Template, edited".equals(given().get("/posts/" + template)
                .path("title")));
        publish(author, template);
        List<ConsumerRecord<String, byte[]>> templates = EventLogReader.recordsWithKey(Topics.POSTS, template);
        assertEquals(3, templates.size(), "the template's creation, edit and publication");

        List<String> posts = new ArrayList<>();
        for (int i = 0; i < POSTS; i++) {
            posts.add(Ids.newId());
        }
        List<String> eventIds = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = producer()) {
            // With the store frozen the creations cannot finish: the edits arrive in later batches, which the engine
            // receives and starts while the creations are in flight, and which must wait for them key by key.
            try (Freezer store = Freezer.store()) {
                for (ConsumerRecord<String, byte[]> record : templates.subList(0, 2)) {
                    double received = received();
                    send(producer, record, template, posts, eventIds);
                    await().atMost(PROJECTION_WAIT).until(() -> received() >= received + POSTS);
                }
            }
            // The group rebalances while those batches finish: partitions move, their records are delivered again.
            joinAndLeaveTheProjectorsGroup();
            send(producer, templates.get(2), template, posts, eventIds);
        }

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + author).then()
                .body("postCount", equalTo(POSTS + 1)));
        for (String post : posts) {
            await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + post).then().statusCode(200)
                    .body("title", equalTo("Template, edited")).body("status", equalTo("published")));
        }
        // Every event applied, none rejected: an edit or publication applied before its post's creation is rejected
        // ("does not exist"), and a creation applied twice would count the post twice.
        for (String eventId : eventIds) {
            Response outcome = given().get("/commands/" + eventId);
            if (outcome.statusCode() == 200) {
                assertFalse(List.of("rejected", "parked").contains(outcome.<String>path("status")), outcome.asString());
            } else {
                assertEquals(404, outcome.statusCode(), outcome.asString());
            }
        }
        given().get("/users/" + author).then().body("postCount", equalTo(POSTS + 1));
        assertEquals(POSTS + 1, Api.allPages("/users/" + author + "/posts", 100).size());
        // The 40 counts on one profile, made many at once, leave no token pending once their batches end.
        await().atMost(PROJECTION_WAIT).until(() -> !store.read(KeyPlan.USER_PROFILE.key(author)).await()
                .indefinitely().orElseThrow().containsKey(TableWriter.PENDING_COUNTS));
    }

    /** Sends the template record's copy for every post, in the posts' order. */
    private static void send(KafkaProducer<String, byte[]> producer, ConsumerRecord<String, byte[]> record,
            String template, List<String> posts, List<String> eventIds) {
        for (String post : posts) {
            String eventId = Ids.newId();
            eventIds.add(eventId);
            producer.send(copy(record, template, post, eventId));
        }
        producer.flush();
    }

    /** How many events the engine has received (its batches' events, counted as they arrive). */
    private double received() {
        return registry.find("cabinet.projection.event.received.age").timers().stream().mapToDouble(t -> t.count())
                .sum();
    }

    /** A plain consumer joins the group, takes its share of the partitions, and leaves without committing anything. */
    private static void joinAndLeaveTheProjectorsGroup() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG,
                ConfigProvider.getConfig().getValue("mp.messaging.incoming.events.group.id", String.class));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, byte[]> joining = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            joining.subscribe(Topics.ALL);
            await().atMost(PROJECTION_WAIT).until(() -> {
                joining.poll(Duration.ofMillis(100));
                return !joining.assignment().isEmpty();
            });
            assertTrue(joining.assignment().size() > 0);
        }
    }

    private static ProducerRecord<String, byte[]> copy(ConsumerRecord<String, byte[]> record, String template,
            String post, String eventId) {
        List<Header> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            String value = header.key().equals("ce_id") ? eventId
                    : new String(header.value(), StandardCharsets.UTF_8).replace(template, post);
            headers.add(new RecordHeader(header.key(), value.getBytes(StandardCharsets.UTF_8)));
        }
        byte[] value = new String(record.value(), StandardCharsets.UTF_8).replace(template, post)
                .getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(record.topic(), null, post, value, headers);
    }

    private static KafkaProducer<String, byte[]> producer() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        // One request for each step's records, so the engine receives them in a few batches.
        config.put(ProducerConfig.LINGER_MS_CONFIG, 100);
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    private static String bootstrap() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }
}
