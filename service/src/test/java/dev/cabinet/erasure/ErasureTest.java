package dev.cabinet.erasure;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.execution.StepCodec;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.support.FreezeAfter;
import dev.cabinet.support.Freezer;
import dev.cabinet.support.ProjectorLag;
import dev.cabinet.table.Attributes;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * A person erased over the wire leaves no personal data behind: no read of the API shows their name, email or text,
 * rebuilding their streams from the log brings none back, and neither the raw bytes of any topic nor any item of any
 * table holds any of it in clear. What others see stays: the post, the comments on it, the counts.
 */
@QuarkusTest
class ErasureTest {

    @Inject
    DynamoDbAsyncClient dynamo;

    /** The instance that erased a person refuses their token at once, before the erasure is projected. */
    @Test
    void anErasedPersonsTokenIsRefusedAtOnceWhereTheyWereErased() {
        String zed = newUserId();
        register(zed, "Zed");
        as(zed).delete("/users/" + zed).then().statusCode(202);
        as(zed).delete("/posts/" + newUserId() + "/likes").then().statusCode(410);
    }

    /**
     * Another producer's post counted onto a person who never registered, then their erasure: the profile's item then
     * holds the count and the erasure, and reads as erased (410), not as no one (a 404 whose registration the
     * projector would then make nothing of).
     */
    @Test
    void aPersonErasedByAnotherProducerWithoutRegisteringReadsAsErased() throws Exception {
        String nobody = newUserId();
        String postId = Ids.newId();
        String created = Ids.newId();
        ForeignProducer.produce(Topics.POSTS, postId, created, "cabinet.post.created.v1", "{\"postId\":\"" + postId
                + "\",\"authorId\":\"" + nobody + "\",\"title\":\"Elsewhere\",\"body\":\"Written elsewhere\","
                + "\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
        awaitOk("/posts/" + postId).body("authorId", equalTo(nobody));
        given().get("/users/" + nobody).then().statusCode(404);

        String erased = Ids.newId();
        ForeignProducer.produce(Topics.USERS, nobody, erased, "cabinet.user.erased.v1", "{\"userId\":\"" + nobody
                + "\",\"erasedAt\":\"2026-01-02T00:00:00.000Z\"}");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + nobody).then().statusCode(410));
        as(nobody).body(Map.of("name", "Back", "email", "back@example.org")).put("/users/" + nobody).then()
                .statusCode(410);
    }

    /**
     * A group whose only admin was erased keeps their membership and role, so no member may manage it; an operator
     * may make another member its admin, who then manages it.
     */
    @Test
    void aGroupWhoseOnlyAdminWasErasedIsGivenANewAdminByAnOperator() {
        String cleo = newUserId();
        String dan = newUserId();
        register(cleo, "Cleo");
        register(dan, "Dan");
        String group = createGroup(cleo, "Left behind");
        applied(waiting(dan).put("/groups/" + group + "/members/" + dan));
        applied(waiting(cleo).delete("/users/" + cleo));
        as(dan).body(Map.of("role", "admin")).patch("/groups/" + group + "/members/" + dan).then().statusCode(403);
        applied(asOperator().header("Prefer", "wait=" + PROJECTION_WAIT.toSeconds()).body(Map.of("role", "admin"))
                .patch("/groups/" + group + "/members/" + dan));
        applied(waiting(dan).body(Map.of("name", "Taken on")).patch("/groups/" + group));
        given().get("/groups/" + group).then().statusCode(200).body("name", equalTo("Taken on"))
                .body("adminCount", equalTo(2));
    }

    /**
     * The store stops answering once the person's profile was read, while the erasure destroys their data key: the
     * deadline passes before the erasure's event is sent, and the answer says the key may be gone (it is, once the
     * store answers again) rather than that nothing was changed; the same request again completes the erasure.
     */
    @Test
    void anErasureCutShortAfterItsKeyWasDestroyedSaysSoAndItsRetryCompletesIt() throws Exception {
        String eve = newUserId();
        register(eve, "Eve");
        Response first;
        CompletableFuture<Freezer> frozen = FreezeAfter.call("GetItem", "USER#" + eve);
        CompletableFuture<Response> sent = CompletableFuture.supplyAsync(() -> as(eve).delete("/users/" + eve));
        try (Freezer store = frozen.get(30, TimeUnit.SECONDS)) {
            first = sent.get(30, TimeUnit.SECONDS);
        }
        first.then().statusCode(503).header("Retry-After", equalTo("5"))
                .body("type", equalTo("urn:cabinet:problem:incomplete"))
                .body("detail", containsString("the data key of " + eve + " destroyed may already be done"));

        applied(waiting(eve).delete("/users/" + eve));
        given().get("/users/" + eve).then().statusCode(410);
    }

    @Test
    void anErasedPersonLeavesNoPersonalDataInTheApiTheLogOrTheTable() {
        String token = UUID.randomUUID().toString().replace("-", "");
        String ada = newUserId();
        String bob = newUserId();
        String name = "Ada" + token.substring(0, 12);
        String renamed = "Adelaide" + token.substring(12, 24);
        String email = "mail" + token + "@example.org";
        String title = "Title" + token;
        String body = "Body" + token;
        String text = "Remark" + token;
        String draftTitle = "Draft" + token;
        List<String> secrets = List.of(name, renamed, email, title, body, text, draftTitle, "avatar" + token);

        as(ada).body(Map.of("name", name, "email", email, "avatarUrl", "https://example.org/avatar" + token + ".png"))
                .put("/users/" + ada).then().statusCode(202);
        awaitOk("/users/" + ada);
        register(bob, "Bob");
        String adasPost = as(ada).body(Map.of("title", title, "body", body)).post("/posts").then().statusCode(202)
                .extract().path("id");
        awaitOk("/posts/" + adasPost);
        publish(ada, adasPost);
        String adasDraft = as(ada).body(Map.of("title", draftTitle, "body", body)).post("/posts").then().statusCode(202)
                .extract().path("id");
        awaitOk("/posts/" + adasDraft);
        String bobsPost = createPost(bob, "Bob's");
        applied(waiting(ada).body(Map.of("text", text)).post("/posts/" + bobsPost + "/comments"));
        applied(waiting(bob).body(Map.of("text", "Bob on Ada's post")).post("/posts/" + adasPost + "/comments"));
        String group = createGroup(bob, "Readers");
        applied(waiting(ada).put("/groups/" + group + "/members/" + ada));
        applied(waiting(ada).put("/posts/" + bobsPost + "/likes"));
        applied(waiting(ada).body(Map.of("name", renamed)).patch("/users/" + ada));
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        await().atMost(PROJECTION_WAIT).until(() -> renamed.equals(given().get("/posts/" + adasPost).path("authorName")));

        List<String> inClear = new ArrayList<>();
        List<String> reads = List.of("/users/" + ada, "/posts/" + adasPost, "/posts/" + bobsPost + "/comments",
                "/users/" + ada + "/posts", "/users/" + ada + "/comments", "/groups/" + group + "/members",
                "/posts?limit=100");
        for (String read : reads) {
            inClear.addAll(found(secrets, given().get(read).asString(), "GET " + read));
        }
        assertTrue(inClear.contains("GET /users/" + ada + " holds " + renamed),
                "before the erasure, the API shows the person (so the checks below can fail): " + inClear);
        assertFalse(found(secrets, tableBytes(), "the table").isEmpty(), "and the read model holds them in clear");
        assertEquals(List.of(), found(secrets, logBytes(), "the log"), "the log never holds them in clear: sealed");

        // Only the person or an operator; never a 5xx, however often.
        as(bob).delete("/users/" + ada).then().statusCode(403).body("type", equalTo("urn:cabinet:problem:forbidden"));
        String stranger = newUserId();
        as(stranger).delete("/users/" + stranger).then().statusCode(404);
        applied(waiting(ada).delete("/users/" + ada));
        given().get("/users/" + ada).then().statusCode(410).body("type", equalTo("urn:cabinet:problem:gone"));
        as(ada).delete("/users/" + ada).then().statusCode(410);
        asOperator().delete("/users/" + ada).then().statusCode(410);
        as(ada).body(Map.of("title", "Again", "body", "x")).post("/posts").then().statusCode(410);
        as(ada).body(Map.of("name", "Back", "email", "back@example.org")).put("/users/" + ada).then().statusCode(410);
        as(ada).body(Map.of("text", "still here?")).post("/posts/" + bobsPost + "/comments").then().statusCode(410);
        // Nor does a token that outlived its person withdraw their like, remove a bookmark or act in a group.
        as(ada).delete("/posts/" + bobsPost + "/likes").then().statusCode(410);
        as(ada).delete("/posts/" + bobsPost + "/bookmarks").then().statusCode(410);
        as(ada).delete("/groups/" + group + "/members/" + ada).then().statusCode(410);
        as(ada).body(Map.of("name", "Taken over")).patch("/groups/" + group).then().statusCode(410);
        // Nor is an erased member anyone's to promote or demote.
        as(bob).body(Map.of("role", "admin")).patch("/groups/" + group + "/members/" + ada).then().statusCode(410);
        as(ada).post("/posts/" + adasPost + "/publish").then().statusCode(410);
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);

        // What others see stays, with the placeholder where the person was.
        given().get("/posts/" + adasPost).then().statusCode(200)
                .body("authorName", equalTo(PersonalFields.ERASED))
                .body("title", equalTo(PersonalFields.ERASED))
                .body("body", equalTo(PersonalFields.ERASED))
                .body("commentCount", equalTo(1));
        given().get("/posts/" + adasPost + "/comments").then().body("items[0].text", equalTo("Bob on Ada's post"));
        given().get("/posts/" + bobsPost).then().body("likeCount", equalTo(1)).body("commentCount", equalTo(1));
        given().get("/posts/" + bobsPost + "/comments").then()
                .body("items[0].authorName", equalTo(PersonalFields.ERASED))
                .body("items[0].text", equalTo(PersonalFields.ERASED));
        given().get("/groups/" + group + "/members").then().statusCode(200)
                .body("items.find { it.userId == '" + ada + "' }.userName", equalTo(PersonalFields.ERASED));

        // Their streams rebuilt from the log: sealed values read as erased, so nothing comes back.
        asOperator().post("/admin/rebuilds/streams/" + Topics.USERS + "/" + ada).then().statusCode(200);
        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + adasPost).then().statusCode(200);
        given().get("/users/" + ada).then().statusCode(410);
        given().get("/posts/" + adasPost).then().body("title", equalTo(PersonalFields.ERASED));

        inClear.clear();
        for (String read : reads) {
            inClear.addAll(found(secrets, given().get(read).asString(), "GET " + read));
        }
        inClear.addAll(found(secrets, tableBytes(), "the table"));
        inClear.addAll(found(secrets, logBytes(), "the log"));
        assertEquals(List.of(), inClear, "no read, item or record holds the person's data in clear");
    }

    private static List<String> found(List<String> secrets, String haystack, String where) {
        return secrets.stream().filter(haystack::contains).map(secret -> where + " holds " + secret).toList();
    }

    /** Every attribute of every item of every table as the SDK prints it (a test-only Scan), recorded steps decoded. */
    private String tableBytes() {
        StringBuilder all = new StringBuilder();
        for (String table : dynamo.listTables().join().tableNames()) {
            Map<String, AttributeValue> from = null;
            do {
                Map<String, AttributeValue> start = from;
                ScanResponse page = dynamo.scan(b -> b.tableName(table).exclusiveStartKey(start)).join();
                page.items().forEach(item -> item.forEach((name, value) -> all.append(text(name, value)).append('\n')));
                from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (from != null);
        }
        return all.toString();
    }

    /**
     * An attribute as its values read: the steps an event recorded on its stream decoded (they are deflated, so their
     * bytes never show a secret), other binary values as their bytes.
     */
    private static String text(String name, AttributeValue value) {
        if (Attributes.PENDING_STEPS.equals(name)) {
            return StepCodec.decode(value).toString();
        }
        return value.b() != null ? new String(value.b().asByteArray(), StandardCharsets.ISO_8859_1) : value.toString();
    }

    /** The raw bytes of every record (key, value and headers) of every topic of the broker, internal ones too. */
    private static String logBytes() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        StringBuilder all = new StringBuilder();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.listTopics(Duration.ofSeconds(10)).forEach((topic, infos) -> infos.forEach(
                    info -> partitions.add(new TopicPartition(topic, info.partition()))));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the topics were not read to their ends within a minute");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    all.append(bytes(record.key())).append(bytes(record.value()));
                    for (Header header : record.headers()) {
                        all.append(bytes(header.value()));
                    }
                    all.append('\n');
                }
            }
        }
        return all.toString();
    }

    private static String bytes(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }
}
