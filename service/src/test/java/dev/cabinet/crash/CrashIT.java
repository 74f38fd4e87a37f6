package dev.cabinet.crash;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.devservices.launcher.Dynalite;
import dev.cabinet.devservices.launcher.KafkaBroker;
import dev.cabinet.shared.Ids;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Crash tests: the packaged application runs as a separate process against its own broker and dynalite, under a steady
 * command load, while it is killed with SIGKILL at random moments, a second instance joins and leaves (two
 * rebalances), the broker is restarted, dynalite is frozen for more than 20 s, and the application is stopped with
 * SIGTERM. Afterwards every acknowledged command must be visible exactly
 * once: nothing missing, no counter off. The figures go to the output and to target/crash-it/report.txt.
 * {@code -Dcabinet.crash.rounds=N} sets the number of kill rounds (default 5), {@code -Dcabinet.crash.seed} the seed.
 */
class CrashIT {

    private static final Path DIR = Path.of("target", "crash-it").toAbsolutePath();
    private static final String GROUP = "cabinet-projector";
    private static final Duration STORE_OUTAGE = Duration.ofSeconds(22);
    private static final int PROGRESS_BETWEEN_FAULTS = 30;

    private static ProcessHarness harness;
    private static KafkaBroker broker;
    private static Dynalite dynalite;
    private static AppProcess app;
    private static CrashClient client;
    private static final List<String> report = new ArrayList<>();

    @BeforeAll
    static void startEverything() throws Exception {
        harness = new ProcessHarness("crash-it");
        broker = harness.broker;
        dynalite = harness.dynalite;
        app = harness.app("app", Map.of());
        client = harness.client(app);
        app.start();
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (harness != null) {
            harness.close();
        }
        if (!report.isEmpty()) {
            Files.write(DIR.resolve("report.txt"), report);
        }
    }

    @Test
    void everyAcknowledgedCommandIsVisibleExactlyOnceAfterKillsARollingUpdateABrokerRestartAStoreOutageAndAGracefulStop()
            throws Exception {
        int rounds = Integer.getInteger("cabinet.crash.rounds", 5);
        long seed = Long.getLong("cabinet.crash.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        log("seed " + seed + ", " + rounds + " kill rounds");

        List<String> users = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            users.add("u" + Ids.newId());
        }
        CommandLoad load = new CommandLoad(client, users);
        for (String user : users) {
            client.applied("PUT", "/users/" + user, user,
                    Map.of("name", "Crash " + user.substring(20), "email", user + "@example.com"));
        }
        for (String user : users) {
            for (int i = 0; i < 4; i++) {
                String postId = client.applied("POST", "/posts", user, Map.of("title", "Seed", "body", "Seed"))
                        .get("id").asText();
                load.seedPost(user, postId);
            }
        }

        load.start(3, seed);
        for (int round = 1; round <= rounds; round++) {
            awaitProgress(load, PROGRESS_BETWEEN_FAULTS + random.nextInt(4 * PROGRESS_BETWEEN_FAULTS));
            app.kill();
            long started = System.nanoTime();
            app.start();
            long ready = millisSince(started);
            String post = load.anySeededPost();
            load.acknowledgedComment(post, client.applied("POST", "/posts/" + post + "/comments", users.get(0),
                    Map.of("text", "after restart " + round)).get("id").asText());
            log("kill -9 round " + round + ": " + load.acknowledged() + " acknowledged so far; ready again in " + ready
                    + " ms, projecting again (a command applied) " + millisSince(started) + " ms after the restart");
        }

        // A second instance joins under load and leaves again, as in a rolling update: each time the group rebalances,
        // and a revoked partition may reach its next owner only once its batches in flight have finished.
        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        AppProcess second = harness.app("second", Map.of());
        long joining = System.nanoTime();
        second.start();
        log("a second instance joined under load: ready in " + millisSince(joining) + " ms");
        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        assertTrue(second.stopGracefully(Duration.ofSeconds(60)), "SIGTERM did not stop the second instance in 60 s");
        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        List<String> handovers = new ArrayList<>();
        for (AppProcess instance : List.of(app, second)) {
            for (String message : logMessages(instance, "Rebalance: ")) {
                log("  " + instance.name() + ": " + message);
                handovers.add(instance.name() + ": " + message);
            }
        }
        assertTrue(handovers.stream().anyMatch(line -> line.startsWith("app: ") && line.contains("handed over")),
                "the first instance handed over no partition when the second joined: " + handovers);

        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        long brokerDown = System.nanoTime();
        broker.restart();
        log("broker restarted in " + millisSince(brokerDown) + " ms");
        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        log("commands acknowledged again " + millisSince(brokerDown) + " ms after the broker went down");

        long storeDown = System.nanoTime();
        dynalite.pause();
        await("readiness DOWN while the store does not answer").atMost(Duration.ofSeconds(30))
                .until(() -> app.readinessStatus() == 503);
        log("readiness DOWN " + millisSince(storeDown) + " ms after dynalite froze");
        // The outage itself is the fault being injected: it lasts a set time, there is no condition to await.
        TimeUnit.MILLISECONDS.sleep(Math.max(0, STORE_OUTAGE.toMillis() - millisSince(storeDown)));
        dynalite.resume();
        long storeUp = System.nanoTime();
        await("readiness UP again without intervention").atMost(Duration.ofSeconds(90))
                .until(() -> app.readinessStatus() == 200);
        log("dynalite frozen for " + STORE_OUTAGE.toSeconds() + " s; readiness UP " + millisSince(storeUp)
                + " ms after it resumed");
        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);

        long stopping = System.nanoTime();
        assertTrue(app.stopGracefully(Duration.ofSeconds(60)), "SIGTERM did not stop the application within 60 s");
        log("SIGTERM under load: stopped in " + millisSince(stopping) + " ms");
        for (String line : Files.readAllLines(app.currentLog())) {
            if (line.startsWith("{") && line.contains("Shutdown: ")) {
                log("  " + new ObjectMapper().readTree(line).path("message").asText());
            }
        }
        // Right after a broker restart the group coordinator may still be loading its offsets: ask until it answers.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(CrashIT::assertEveryAppliedOffsetIsCommitted);
        app.start();

        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        load.stop();
        log(load.sent() + " commands sent, " + load.acknowledged() + " acknowledged; answers by status (-1: none, the "
                + "application was down): " + load.answers());
        assertTrue(Set.of(-1, 202, 503).containsAll(load.answers().keySet()),
                "during faults a command is accepted (202), refused as unavailable (503) or not answered at all: "
                        + load.answers());
        await("every acknowledged command projected exactly once").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertEverythingAcknowledgedIsVisibleOnce(load));
        log("lost: 0, doubled: 0 (" + load.ackedComments().values().stream().mapToInt(Set::size).sum()
                + " acknowledged comments on " + load.ackedComments().size() + " posts, "
                + load.ackedPosts().values().stream().mapToInt(Set::size).sum() + " acknowledged posts)");
    }

    /**
     * The messages of the instance's JSON log lines that contain {@code marker}; a line still being written (the
     * instance runs) is skipped.
     */
    private static List<String> logMessages(AppProcess instance, String marker) throws java.io.IOException {
        List<String> messages = new ArrayList<>();
        for (String line : Files.readAllLines(instance.currentLog(), java.nio.charset.StandardCharsets.ISO_8859_1)) {
            if (line.startsWith("{") && line.endsWith("}") && line.contains(marker)) {
                try {
                    messages.add(new ObjectMapper().readTree(line).path("message").asText());
                } catch (com.fasterxml.jackson.core.JsonProcessingException partial) {
                    // the line was cut short by the instance still writing it
                }
            }
        }
        return messages;
    }

    /** Lets the load run until {@code count} more commands were acknowledged. */
    private static void awaitProgress(CommandLoad load, int count) {
        long target = load.acknowledged() + count;
        await().atMost(Duration.ofSeconds(90)).until(() -> load.acknowledged() >= target);
    }

    private static void assertEverythingAcknowledgedIsVisibleOnce(CommandLoad load) {
        for (Map.Entry<String, Set<String>> post : load.ackedComments().entrySet()) {
            List<String> visible = client.allPages("/posts/" + post.getKey() + "/comments", "id");
            Set<String> distinct = new HashSet<>(visible);
            assertEquals(visible.size(), distinct.size(), "a comment listed twice on " + post.getKey());
            Set<String> missing = new HashSet<>(post.getValue());
            missing.removeAll(distinct);
            assertTrue(missing.isEmpty(), missing.size() + " acknowledged comments missing on " + post.getKey());
            assertEquals(visible.size(), client.get("/posts/" + post.getKey()).get("commentCount").asLong(),
                    "commentCount of " + post.getKey());
        }
        for (Map.Entry<String, Set<String>> user : load.ackedPosts().entrySet()) {
            List<String> visible = client.allPages("/users/" + user.getKey() + "/posts", "id");
            assertEquals(visible.size(), new HashSet<>(visible).size(), "a post listed twice for " + user.getKey());
            assertTrue(visible.containsAll(user.getValue()), "acknowledged posts missing for " + user.getKey());
            assertEquals(visible.size(), client.get("/users/" + user.getKey()).get("postCount").asLong(),
                    "postCount of " + user.getKey());
        }
    }

    /**
     * After a graceful stop, the consumer group's committed offset of every partition is just past the last offset the
     * projector recorded as applied: the batches in flight finished and were committed, nothing half-done remains.
     */
    private static void assertEveryAppliedOffsetIsCommitted() throws Exception {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        Map<TopicPartition, OffsetAndMetadata> committed;
        try (Admin admin = Admin.create(config)) {
            committed = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        }
        int checked = 0;
        try (DynamoDbClient dynamo = harness.dynamo()) {
            for (Map.Entry<TopicPartition, OffsetAndMetadata> partition : committed.entrySet()) {
                TopicPartition tp = partition.getKey();
                Map<String, AttributeValue> progress = dynamo.getItem(b -> b.tableName("cabinet").consistentRead(true)
                        .key(Map.of("pk", AttributeValue.fromS("PROGRESS#" + tp.topic().replace('.', '-')),
                                "sk", AttributeValue.fromS("PARTITION#" + tp.partition())))).item();
                if (progress.isEmpty()) {
                    continue;
                }
                assertEquals(Long.parseLong(progress.get("appliedOffset").n()) + 1, partition.getValue().offset(),
                        "committed offset of " + tp + " after a graceful stop");
                checked++;
            }
        }
        assertTrue(checked > 0, "no partition had both a committed offset and recorded progress: " + committed);
        log("graceful stop: committed offset = last applied + 1 on all " + checked + " partitions with events");
    }

    private static void log(String line) {
        System.out.println("[crash] " + line);
        report.add(line);
    }

    private static long millisSince(long nanoTime) {
        return (System.nanoTime() - nanoTime) / 1_000_000;
    }

}
