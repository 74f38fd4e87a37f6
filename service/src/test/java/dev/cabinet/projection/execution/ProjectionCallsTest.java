package dev.cabinet.projection.execution;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.RecentSpans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Store calls and sequential rounds per applied event, by event type, from the projector's tracing spans: the
 * DynamoDB client spans under the span of applying one event are its calls, and the longest chain of them in which
 * each starts after the previous one ended is its rounds (the fewest of three runs: calls issued together can miss
 * each other on a busy machine, never the reverse). Prints the table docs/benchmarks-history.md quotes (issue 16, item 7);
 * asserts only that every event was measured. The user renamed here holds one copy of each kind (a post, a comment
 * and a group membership), so the rename's figures include walking and refreshing three copies.
 */
@QuarkusTest
class ProjectionCallsTest {

    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");

    @Inject
    RecentSpans spans;

    /** Rounds measured from spans can only come out high (calls issued together that happen not to overlap). */
    private static final int RUNS = 3;

    @Test
    void printsStoreCallsAndRoundsPerEventType() {
        Map<String, List<List<SpanData>>> measured = new LinkedHashMap<>();
        for (int run = 0; run < RUNS; run++) {
            scenario().forEach((type, eventId) -> measured.computeIfAbsent(type, t -> new ArrayList<>())
                    .add(await().atMost(PROJECTION_WAIT).until(() -> callsOf(eventId), Optional::isPresent)
                            .orElseThrow()));
        }
        StringBuilder table = new StringBuilder("| event type | store calls | rounds | calls by operation |\n"
                + "|---|---:|---:|---|\n");
        StringBuilder timelines = new StringBuilder();
        for (Map.Entry<String, List<List<SpanData>>> type : measured.entrySet()) {
            List<SpanData> fewest = type.getValue().stream().min(Comparator.comparingInt(ProjectionCallsTest::rounds))
                    .orElseThrow();
            assertTrue(!fewest.isEmpty(), type.getKey() + " made no store call");
            Map<String, Integer> byOperation = new TreeMap<>();
            fewest.forEach(call -> byOperation.merge(String.valueOf(call.getAttributes().get(RPC_METHOD)), 1,
                    Integer::sum));
            table.append("| ").append(type.getKey()).append(" | ")
                    .append(type.getValue().stream().map(List::size).distinct().sorted().map(String::valueOf)
                            .reduce((a, b) -> a + "–" + b).orElseThrow())
                    .append(" | ").append(rounds(fewest)).append(" | ").append(byOperation).append(" |\n");
            timelines.append(type.getKey()).append(": ").append(timeline(fewest)).append('\n');
        }
        System.out.println("Store calls and rounds per applied event (fewest rounds of " + RUNS + " runs):\n" + table
                + "\nTheir calls in start order, [start-end] in microseconds:\n" + timelines);
    }

    /**
     * One user's life through the API, and a second user joining and leaving the group: each measured event type once,
     * by the id of its event.
     */
    private static Map<String, String> scenario() {
        Map<String, String> events = new LinkedHashMap<>();
        String user = newUserId();
        events.put("cabinet.user.registered.v1", as(user).body(Map.of("name", "Meter", "email", user + "@example.com"))
                .put("/users/" + user).then().statusCode(202).extract().path("eventId"));
        awaitOk("/users/" + user);
        var group = as(user).body(Map.of("name", "Metered", "description", "About"))
                .post("/groups").then().statusCode(202).extract();
        String groupId = group.path("id");
        events.put("cabinet.group.created.v1", group.path("eventId"));
        awaitOk("/groups/" + groupId);
        var created = as(user).body(Map.of("title", "Measured", "body", "Body")).post("/posts")
                .then().statusCode(202).extract();
        String postId = created.path("id");
        events.put("cabinet.post.created.v1", created.path("eventId"));
        awaitOk("/posts/" + postId);
        events.put("cabinet.post.edited.v1", as(user).body(Map.of("title", "Measured, edited"))
                .patch("/posts/" + postId).then().statusCode(202).extract().path("eventId"));
        events.put("cabinet.post.published.v1", as(user).post("/posts/" + postId + "/publish")
                .then().statusCode(202).extract().path("eventId"));
        var commented = as(user).body(Map.of("text", "Counted")).post("/posts/" + postId + "/comments")
                .then().statusCode(202).extract();
        String commentId = commented.path("id");
        events.put("cabinet.comment.added.v1", commented.path("eventId"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then()
                .body("commentCount", equalTo(1)).body("status", equalTo("published")));
        events.put("cabinet.user.profile-updated.v1", as(user).body(Map.of("name", "Meter, renamed"))
                .patch("/users/" + user).then().statusCode(202).extract().path("eventId"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then()
                .body("authorName", equalTo("Meter, renamed")));
        events.put("cabinet.comment.deleted.v1", as(user).delete("/posts/" + postId + "/comments/" + commentId)
                .then().statusCode(202).extract().path("eventId"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then()
                .body("commentCount", equalTo(0)));
        events.put("cabinet.post.deleted.v1", as(user).delete("/posts/" + postId)
                .then().statusCode(202).extract().path("eventId"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then().statusCode(404));
        String joiner = newUserId();
        as(joiner).body(Map.of("name", "Joiner", "email", joiner + "@example.com")).put("/users/" + joiner).then()
                .statusCode(202);
        awaitOk("/users/" + joiner);
        events.put("cabinet.group.member-joined.v1", as(joiner).put("/groups/" + groupId + "/members/" + joiner)
                .then().statusCode(202).extract().path("eventId"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/groups/" + groupId).then()
                .body("memberCount", equalTo(2)));
        events.put("cabinet.group.member-left.v1", as(joiner).delete("/groups/" + groupId + "/members/" + joiner)
                .then().statusCode(202).extract().path("eventId"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/groups/" + groupId).then()
                .body("memberCount", equalTo(1)));
        return events;
    }

    /** The store calls made while applying the event, once its span has ended (empty until then). */
    private Optional<List<SpanData>> callsOf(String eventId) {
        List<SpanData> all = spans.all();
        Optional<SpanData> process = all.stream().filter(s -> s.getKind() == SpanKind.CONSUMER
                && eventId.equals(s.getAttributes().get(MESSAGE_ID))).findFirst();
        return process.map(p -> all.stream().filter(s -> s.getKind() == SpanKind.CLIENT
                && s.getParentSpanId().equals(p.getSpanId())).toList());
    }

    /** The calls in the order they started, with start and end in microseconds from the first one's start. */
    private static String timeline(List<SpanData> calls) {
        List<SpanData> byStart = new ArrayList<>(calls);
        byStart.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
        long zero = byStart.get(0).getStartEpochNanos();
        return byStart.stream().map(call -> call.getAttributes().get(RPC_METHOD) + "["
                + (call.getStartEpochNanos() - zero) / 1000 + "-" + (call.getEndEpochNanos() - zero) / 1000 + "]")
                .toList().toString();
    }

    /** The longest chain of calls each starting after the one before it ended: the sequential rounds. */
    static int rounds(List<SpanData> calls) {
        List<SpanData> byStart = new ArrayList<>(calls);
        byStart.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
        int[] chain = new int[byStart.size()];
        int longest = 0;
        for (int i = 0; i < byStart.size(); i++) {
            chain[i] = 1;
            for (int j = 0; j < i; j++) {
                if (byStart.get(j).getEndEpochNanos() <= byStart.get(i).getStartEpochNanos()) {
                    chain[i] = Math.max(chain[i], chain[j] + 1);
                }
            }
            longest = Math.max(longest, chain[i]);
        }
        return longest;
    }
}
