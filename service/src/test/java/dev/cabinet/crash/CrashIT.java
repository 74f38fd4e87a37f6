package dev.cabinet.crash;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
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

import dev.cabinet.devservices.launcher.Dynalite;
import dev.cabinet.devservices.launcher.KafkaBroker;
import dev.cabinet.devservices.launcher.LaunchSettings;
import dev.cabinet.devservices.launcher.OrphanRegistry;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Ids;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Crash tests: the packaged application runs as a separate process against its own broker and dynalite, under a steady
 * command load, while it is killed with SIGKILL at random moments, the broker is restarted, dynalite is frozen for more
 * than 20 s, and the application is stopped with SIGTERM. Afterwards every acknowledged command must be visible exactly
 * once: nothing missing, no counter off. The figures go to the output and to target/crash-it/report.txt.
 * {@code -Dcabinet.crash.rounds=N} sets the number of kill rounds (default 5), {@code -Dcabinet.crash.seed} the seed.
 */
class CrashIT {

    private static final Path DIR = Path.of("target", "crash-it").toAbsolutePath();
    private static final int PARTITIONS = 6;
    private static final String GROUP = "cabinet-projector";
    private static final Duration STORE_OUTAGE = Duration.ofSeconds(22);
    private static final int PROGRESS_BETWEEN_FAULTS = 30;

    private static KafkaBroker broker;
    private static Dynalite dynalite;
    private static AppProcess app;
    private static CrashClient client;
    private static final List<String> report = new ArrayList<>();

    @BeforeAll
    static void startEverything() throws Exception {
        Files.createDirectories(DIR);
        OrphanRegistry registry = new OrphanRegistry(DIR.resolve("pids"));
        registry.reapOrphans();
        LaunchSettings settings = LaunchSettings.defaults();
        dynalite = Dynalite.start(settings, DIR, registry);
        broker = KafkaBroker.start(settings, DIR, registry);
        List<String> topics = new ArrayList<>(Topics.ALL);
        topics.add(Topics.DEAD_LETTERS);
        KafkaBroker.createTopics(broker.bootstrapServers(), topics, PARTITIONS);

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Path publicKey = DIR.resolve("issuer-public-key.pem");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");

        Map<String, String> properties = new HashMap<>();
        properties.put("kafka.bootstrap.servers", broker.bootstrapServers());
        properties.put("quarkus.dynamodb.endpoint-override", dynalite.endpoint());
        for (String service : List.of("dynamodb", "s3")) {
            properties.put("quarkus." + service + ".aws.region", "us-east-1");
            properties.put("quarkus." + service + ".aws.credentials.type", "static");
            properties.put("quarkus." + service + ".aws.credentials.static-provider.access-key-id", "crash");
            properties.put("quarkus." + service + ".aws.credentials.static-provider.secret-access-key", "crash");
        }
        properties.put("cabinet.table.create-if-missing", "true");
        properties.put("cabinet.projection.stuck-after", "5s");
        Map<String, String> environment = Map.of(
                "CABINET_JWT_ISSUER", CrashClient.ISSUER,
                "CABINET_JWT_PUBLIC_KEY_LOCATION", "file:" + publicKey,
                "CABINET_JWT_AUDIENCE", CrashClient.AUDIENCE,
                "CABINET_CURSOR_SECRET", "crash-test-cursor-signing-key-of-enough-length");
        app = new AppProcess(freePort(), properties, environment, DIR);
        client = new CrashClient(app::uri, keys.getPrivate());
        app.start();
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (app != null) {
            app.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (dynalite != null) {
            dynalite.close();
        }
        if (!report.isEmpty()) {
            Files.write(DIR.resolve("report.txt"), report);
        }
    }

    @Test
    void everyAcknowledgedCommandIsVisibleExactlyOnceAfterKillsABrokerRestartAStoreOutageAndAGracefulStop()
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
            assertEquals(202, client.send("PUT", "/users/" + user, user,
                    Map.of("name", "Crash " + user.substring(20), "email", user + "@example.com")).status());
        }
        for (String user : users) {
            await().atMost(Duration.ofSeconds(60)).until(() -> client.send("GET", "/users/" + user, null, null)
                    .status() == 200);
            CrashClient.Answer post = client.send("POST", "/posts", user, Map.of("title", "Seed", "body", "Seed"));
            assertEquals(202, post.status());
            String postId = post.body().get("id").asText();
            await().atMost(Duration.ofSeconds(60)).until(() -> client.send("GET", "/posts/" + postId, null, null)
                    .status() == 200);
            load.seedPost(user, postId);
        }

        load.start(3, seed);
        for (int round = 1; round <= rounds; round++) {
            awaitProgress(load, PROGRESS_BETWEEN_FAULTS + random.nextInt(4 * PROGRESS_BETWEEN_FAULTS));
            app.kill();
            long started = System.nanoTime();
            app.start();
            log("kill -9 round " + round + ": " + load.acknowledged() + " acknowledged so far; ready again in "
                    + millisSince(started) + " ms");
        }

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
        assertTrue(Files.readString(app.currentLog()).contains("batches in flight finished in"),
                "the projector did not drain its batches; see " + app.currentLog());
        // Right after a broker restart the group coordinator may still be loading its offsets: ask until it answers.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(CrashIT::assertEveryAppliedOffsetIsCommitted);
        app.start();

        awaitProgress(load, PROGRESS_BETWEEN_FAULTS);
        load.stop();
        log(load.sent() + " commands sent, " + load.acknowledged() + " acknowledged");
        await("every acknowledged command projected exactly once").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertEverythingAcknowledgedIsVisibleOnce(load));
        log("lost: 0, doubled: 0 (" + load.ackedComments().values().stream().mapToInt(Set::size).sum()
                + " acknowledged comments on " + load.ackedComments().size() + " posts, "
                + load.ackedPosts().values().stream().mapToInt(Set::size).sum() + " acknowledged posts)");
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
        try (DynamoDbClient dynamo = DynamoDbClient.builder().endpointOverride(URI.create(dynalite.endpoint()))
                .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("crash", "crash")))
                .build()) {
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

    private static int freePort() throws Exception {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
