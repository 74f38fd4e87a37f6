package dev.cabinet.projection.execution;

import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.ordering.DirectBatches;
import dev.cabinet.projection.ordering.ProjectionEngine;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.ProjectorLag;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Random commands from several users at once (renames, posts, publishes, comments and their deletion, post deletions,
 * joins, leaves, group renames), in rounds; between rounds, already-projected suffixes of the log are delivered again,
 * as a consumer rebalance does. When the projector has caught up, every answer must equal what an independent model
 * computes from the accepted commands, ordered by the log positions their 202 answers returned. The operations are
 * generated from a seed ({@code -Dcabinet.convergence.seed}); which of them the API accepts depends on timing, which
 * is the point, and the model follows whatever was accepted.
 */
@QuarkusTest
class ConvergenceTest {

    private static final long SEED = Long.getLong("cabinet.convergence.seed", 20261129L);
    private static final int WORKERS = 4;
    private static final int ROUNDS = 5;
    private static final int OPERATIONS_PER_ROUND = 15;
    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    @Inject
    ProjectionEngine engine;

    /** An accepted command's event: what the model needs of it, and where the log put it. */
    record Accepted(String kind, String aggregate, String subject, String value, String topic, int partition, long offset) {
    }

    private final Queue<Accepted> accepted = new ConcurrentLinkedQueue<>();
    private final Queue<String> unexpected = new ConcurrentLinkedQueue<>();
    private final List<String> users = new ArrayList<>();
    private final List<String> groups = new ArrayList<>();
    /** The aggregates this test made; workers add to it while replays read it. */
    private final Set<String> ourKeys = ConcurrentHashMap.newKeySet();

    @Test
    void everyAnswerEqualsTheModelOfTheAcceptedCommandsAfterConcurrentCommandsAndRedeliveries() throws Exception {
        Random replays = new Random(SEED);
        List<String> initialPosts = setUp();
        List<Worker> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            workers.add(new Worker(w, new Random(SEED + w + 1), initialPosts));
        }
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                List<Future<?>> running = new ArrayList<>();
                for (Worker worker : workers) {
                    running.add(pool.submit(() -> worker.run(OPERATIONS_PER_ROUND)));
                }
                for (Future<?> future : running) {
                    future.get();
                }
                ProjectorLag.awaitCaughtUp(CATCH_UP);
                redeliverSuffixes(replays);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(unexpected.isEmpty(), "unexpected answers: " + unexpected);
        assertTrue(accepted.size() > WORKERS * ROUNDS * OPERATIONS_PER_ROUND / 2, "most operations should be accepted");

        Model model = new Model(accepted);
        System.out.printf("ConvergenceTest (seed %d): %d commands accepted: %s%n", SEED, accepted.size(),
                accepted.stream().collect(Collectors.groupingBy(Accepted::kind, TreeMap::new, Collectors.counting())));
        await().atMost(CATCH_UP).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertMatches(model));
    }

    private List<String> setUp() {
        for (int w = 0; w < WORKERS; w++) {
            String user = newUserId();
            users.add(user);
            ourKeys.add(user);
            register(user, name(w, 0));
            record(new Accepted("rename-user", user, null, name(w, 0), null, 0, -1));
        }
        List<String> posts = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            for (int i = 0; i < 2; i++) {
                String postId = createPost(users.get(w), "Initial " + w + "-" + i);
                posts.add(postId);
                ourKeys.add(postId);
                record(new Accepted("create-post", postId, users.get(w), null, null, 0, -1));
            }
        }
        for (int g = 0; g < 2; g++) {
            String groupId = createGroup(users.get(0), "Group " + g);
            groups.add(groupId);
            ourKeys.add(groupId);
            record(new Accepted("create-group", groupId, users.get(0), "Group " + g, null, 0, -1));
        }
        return posts;
    }

    /** Setup events are applied before anything else; their offsets do not matter to the model. */
    private void record(Accepted event) {
        accepted.add(event);
    }

    private static String name(int worker, int version) {
        return "User " + worker + " v" + version;
    }

    /** One user sending commands, its choices drawn from its own seeded generator. */
    private final class Worker {
        private final int index;
        private final Random random;
        private final String user;
        private final List<String> targets;
        private final List<String> ownPosts = new ArrayList<>();
        private final List<String[]> ownComments = new ArrayList<>();
        private int renames;
        private int groupRenames;

        Worker(int index, Random random, List<String> initialPosts) {
            this.index = index;
            this.random = random;
            this.user = users.get(index);
            this.targets = new ArrayList<>(initialPosts);
            initialPosts.subList(index * 2, index * 2 + 2).forEach(ownPosts::add);
        }

        void run(int operations) {
            for (int i = 0; i < operations; i++) {
                int dice = random.nextInt(100);
                if (dice < 10) {
                    String name = name(index, ++renames);
                    send("rename-user", user, null, name, as(user).body(Map.of("name", name)).patch("/users/" + user),
                            200);
                } else if (dice < 22) {
                    Response response = as(user).body(Map.of("title", "Post by " + index, "body", "b")).post("/posts");
                    String postId = response.path("id");
                    if (send("create-post", postId, user, null, response, 409)) {
                        ourKeys.add(postId);
                        ownPosts.add(postId);
                        targets.add(postId);
                    }
                } else if (dice < 32 && !ownPosts.isEmpty()) {
                    String postId = pick(ownPosts);
                    send("publish", postId, null, null, as(user).post("/posts/" + postId + "/publish"), 404, 409);
                } else if (dice < 65) {
                    String postId = pick(targets);
                    Response response = as(user).body(Map.of("text", "From " + index)).post("/posts/" + postId
                            + "/comments");
                    String commentId = response.path("id");
                    if (send("add-comment", postId, user, commentId, response, 404)) {
                        ownComments.add(new String[] { postId, commentId });
                    }
                } else if (dice < 75 && !ownComments.isEmpty()) {
                    String[] comment = ownComments.remove(random.nextInt(ownComments.size()));
                    send("delete-comment", comment[0], null, comment[1],
                            as(user).delete("/posts/" + comment[0] + "/comments/" + comment[1]), 404);
                } else if (dice < 80 && !ownPosts.isEmpty()) {
                    String postId = ownPosts.remove(random.nextInt(ownPosts.size()));
                    send("delete-post", postId, null, null, as(user).delete("/posts/" + postId), 404);
                } else if (index == 0) {
                    String groupId = pick(groups);
                    String name = "Group renamed " + ++groupRenames;
                    send("rename-group", groupId, null, name, as(user).body(Map.of("name", name))
                            .patch("/groups/" + groupId), 404);
                } else if (dice < 92) {
                    String groupId = pick(groups);
                    send("join", groupId, user, null, as(user).put("/groups/" + groupId + "/members/" + user), 200);
                } else {
                    String groupId = pick(groups);
                    send("leave", groupId, user, null, as(user).delete("/groups/" + groupId + "/members/" + user), 404);
                }
            }
        }

        private String pick(List<String> from) {
            return from.get(random.nextInt(from.size()));
        }

        /** Records a 202 with its log position; any answer but 202 and the listed ones is a failure. */
        private boolean send(String kind, String aggregate, String subject, String value, Response response,
                int... tolerated) {
            int status = response.statusCode();
            if (status == 202) {
                String[] position = response.<String>path("position").split(":");
                accepted.add(new Accepted(kind, aggregate, subject, value, position[0], Integer.parseInt(position[1]),
                        Long.parseLong(position[2])));
                return true;
            }
            for (int ok : tolerated) {
                if (status == ok) {
                    return false;
                }
            }
            unexpected.add(kind + " " + aggregate + " -> " + status + " " + response.asString());
            return false;
        }
    }

    /** Delivers a random suffix of some partitions again, straight to the engine, as after a rebalance. */
    private void redeliverSuffixes(Random random) {
        for (String topic : List.of(Topics.USERS, Topics.POSTS, Topics.GROUPS)) {
            Map<Integer, List<ConsumerRecord<String, byte[]>>> byPartition = EventLogReader.readAll(topic).stream()
                    .collect(Collectors.groupingBy(ConsumerRecord::partition, TreeMap::new, Collectors.toList()));
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> batch = new LinkedHashMap<>();
            byPartition.forEach((partition, records) -> {
                if (random.nextBoolean()) {
                    int from = records.size() - 1 - random.nextInt(Math.min(records.size(), 60));
                    List<ConsumerRecord<String, byte[]>> suffix = records.subList(Math.max(from, 0), records.size())
                            .stream().filter(r -> ourKeys.contains(r.key())).toList();
                    if (!suffix.isEmpty()) {
                        batch.put(new TopicPartition(topic, partition), suffix);
                    }
                }
            });
            DirectBatches.project(engine, new ConsumerRecords<>(batch, Map.of())).await().atMost(CATCH_UP);
        }
    }

    /** What the answers must be, computed from the accepted events alone, each aggregate's in log order. */
    private final class Model {
        final Map<String, String> names = new HashMap<>();
        final Map<String, String> authors = new HashMap<>();
        final Set<String> livePosts = new HashSet<>();
        final Set<String> published = new HashSet<>();
        final Map<String, Map<String, String>> comments = new HashMap<>();
        final Map<String, String> groupNames = new HashMap<>();
        final Map<String, Set<String>> members = new HashMap<>();

        Model(Queue<Accepted> events) {
            List<Accepted> ordered = new ArrayList<>(events);
            ordered.sort(Comparator.comparingLong(Accepted::offset));
            for (Accepted e : ordered) {
                switch (e.kind()) {
                    case "rename-user" -> names.put(e.aggregate(), e.value());
                    case "create-post" -> {
                        authors.put(e.aggregate(), e.subject());
                        livePosts.add(e.aggregate());
                        comments.put(e.aggregate(), new HashMap<>());
                    }
                    case "publish" -> {
                        if (livePosts.contains(e.aggregate())) {
                            published.add(e.aggregate());
                        }
                    }
                    case "add-comment" -> {
                        if (livePosts.contains(e.aggregate())) {
                            comments.get(e.aggregate()).put(e.value(), e.subject());
                        }
                    }
                    case "delete-comment" -> comments.get(e.aggregate()).remove(e.value());
                    case "delete-post" -> {
                        livePosts.remove(e.aggregate());
                        published.remove(e.aggregate());
                        comments.get(e.aggregate()).clear();
                    }
                    case "create-group" -> {
                        groupNames.put(e.aggregate(), e.value());
                        members.put(e.aggregate(), new HashSet<>(Set.of(e.subject())));
                    }
                    case "rename-group" -> groupNames.put(e.aggregate(), e.value());
                    case "join" -> members.get(e.aggregate()).add(e.subject());
                    case "leave" -> members.get(e.aggregate()).remove(e.subject());
                    default -> throw new IllegalStateException(e.kind());
                }
            }
        }
    }

    private void assertMatches(Model model) {
        for (String user : users) {
            Set<String> ownLive = model.livePosts.stream().filter(p -> user.equals(model.authors.get(p)))
                    .collect(Collectors.toSet());
            Map<String, Object> profile = given().get("/users/" + user).then().statusCode(200).extract().jsonPath().getMap("");
            assertEquals(model.names.get(user), profile.get("name"), "name of " + user);
            assertEquals(ownLive.size(), ((Number) profile.get("postCount")).intValue(), "postCount of " + user);
            assertEquals(ownLive, new HashSet<>(allPages("/users/" + user + "/posts", 50, "id")), "posts of " + user);

            Set<String> written = new HashSet<>();
            model.comments.values().forEach(byId -> byId.forEach((id, author) -> {
                if (author.equals(user)) {
                    written.add(id);
                }
            }));
            List<Map<String, Object>> listed = allPages("/users/" + user + "/comments", 50);
            assertEquals(written, listed.stream().map(c -> c.get("id")).collect(Collectors.toSet()), "comments of " + user);
            listed.forEach(c -> assertEquals(model.names.get(user), c.get("authorName"), "author name on " + c));

            Set<String> memberOf = model.members.entrySet().stream().filter(e -> e.getValue().contains(user))
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
            List<Map<String, Object>> memberships = allPages("/users/" + user + "/groups", 50);
            assertEquals(memberOf, memberships.stream().map(m -> m.get("groupId")).collect(Collectors.toSet()),
                    "groups of " + user);
            memberships.forEach(m -> assertEquals(model.groupNames.get(m.get("groupId")), m.get("groupName")));
        }
        for (String postId : model.authors.keySet()) {
            List<Map<String, Object>> listed = allPages("/posts/" + postId + "/comments", 50);
            Map<String, String> expected = model.comments.get(postId);
            assertEquals(expected.keySet(), listed.stream().map(c -> c.get("id")).collect(Collectors.toSet()),
                    "comments on " + postId);
            listed.forEach(c -> assertEquals(model.names.get(expected.get(c.get("id"))), c.get("authorName")));
            if (model.livePosts.contains(postId)) {
                Map<String, Object> post = given().get("/posts/" + postId).then().statusCode(200).extract().jsonPath()
                        .getMap("");
                assertEquals(model.names.get(model.authors.get(postId)), post.get("authorName"), "author of " + postId);
                assertEquals(expected.size(), ((Number) post.get("commentCount")).intValue(), "count on " + postId);
                assertEquals(model.published.contains(postId) ? "published" : "draft", post.get("status"));
            } else {
                given().get("/posts/" + postId).then().statusCode(404);
            }
        }
        for (String groupId : groups) {
            List<Map<String, Object>> listed = allPages("/groups/" + groupId + "/members", 50);
            assertEquals(model.members.get(groupId), listed.stream().map(m -> m.get("userId")).collect(Collectors.toSet()),
                    "members of " + groupId);
            listed.forEach(m -> assertEquals(model.names.get(m.get("userId")), m.get("userName")));
            Map<String, Object> group = given().get("/groups/" + groupId).then().statusCode(200).extract().jsonPath()
                    .getMap("");
            assertEquals(model.groupNames.get(groupId), group.get("name"));
            assertEquals(model.members.get(groupId).size(), ((Number) group.get("memberCount")).intValue());
        }
        Set<Object> feed = new HashSet<>(allPages("/posts?status=published", 100, "id"));
        for (String postId : model.authors.keySet()) {
            assertEquals(model.published.contains(postId), feed.contains(postId), "feed entry of " + postId);
        }
    }
}
