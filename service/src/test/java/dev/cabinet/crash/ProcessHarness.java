package dev.cabinet.crash;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.cabinet.devservices.launcher.BrokerAndStore;
import dev.cabinet.devservices.launcher.Dynalite;
import dev.cabinet.devservices.launcher.FreePorts;
import dev.cabinet.devservices.launcher.KafkaBroker;
import dev.cabinet.devservices.launcher.LaunchSettings;
import dev.cabinet.devservices.launcher.OrphanRegistry;
import dev.cabinet.devservices.launcher.StaleState;
import dev.cabinet.eventlog.Topics;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A broker, a dynalite and an identity provider's key pair of a test's own, and packaged application processes wired
 * to them the way a deployment wires a pod (prod profile, the {@code CABINET_*} variables). For the tests that kill,
 * restart or run several instances.
 */
public final class ProcessHarness implements AutoCloseable {

    static final int PARTITIONS = 6;
    /** Small and quick to start: the crash tests start many instances and measure recovery, not speed. */
    public static final List<String> TEST_JVM = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1");
    static final String CURSOR_SECRET = "process-test-cursor-signing-key-of-enough-length";

    public final Path dir;
    public final KafkaBroker broker;
    public final Dynalite dynalite;
    private final KeyPair keys;
    private final Path publicKey;
    private final List<AppProcess> apps = new CopyOnWriteArrayList<>();   // the exit hook may read it
    private final boolean recordAwsCalls;
    /** The certificate (PEM) the broker's authenticated listener presents, when it has one. */
    private final Path brokerCertificate;
    private final Thread stopAtExit = new Thread(this::stopQuietly, "process-harness-stop");

    public ProcessHarness(String name) throws Exception {
        this(name, true, LaunchSettings.defaults(), false);
    }

    /**
     * A harness whose broker also has a listener as a production cluster's clients meet it: TLS with a certificate of
     * its own ({@link #brokerCertificate}), SCRAM-SHA-512, and ACLs enforced for every user but the plaintext
     * listener's anonymous one (the test's own clients).
     */
    public static ProcessHarness secured(String name) throws Exception {
        return new ProcessHarness(name, true, LaunchSettings.defaults(), true);
    }

    /**
     * A harness whose application processes run as deployed: without the test-only log of AWS calls that the other
     * process tests keep for {@code IamPoliciesIT}, which walks the stack on every store call (about 2% of a
     * projector's CPU under load). For the benchmarks, which measure what a deployment pays.
     */
    public static ProcessHarness asDeployed(String name) throws Exception {
        return asDeployed(name, LaunchSettings.defaults());
    }

    /** The same, with the broker and dynalite launched by these settings (the benchmark records dynalite's requests). */
    public static ProcessHarness asDeployed(String name, LaunchSettings settings) throws Exception {
        return new ProcessHarness(name, false, settings, false);
    }

    private ProcessHarness(String name, boolean recordAwsCalls, LaunchSettings settings, boolean secured)
            throws Exception {
        this.recordAwsCalls = recordAwsCalls;
        dir = Path.of("target", name).toAbsolutePath();
        Files.createDirectories(dir);
        OrphanRegistry registry = new OrphanRegistry(dir.resolve("pids"));
        registry.reapOrphans();
        // Each run's broker folder (its data too: the benchmark's is 80 MB), s3proxy's and dynalite's log, by port.
        StaleState.prune(dir, Duration.ofHours(1), Instant.now());
        KafkaBroker.Secured listener = null;
        if (secured) {
            listener = BrokerCertificate.keystore(dir.resolve("broker-tls"));
            brokerCertificate = BrokerCertificate.certificate(listener);
        } else {
            brokerCertificate = null;
        }
        BrokerAndStore infrastructure = BrokerAndStore.start(settings, dir, registry, listener);
        broker = infrastructure.broker();
        dynalite = infrastructure.dynalite();
        Runtime.getRuntime().addShutdownHook(stopAtExit);
        List<String> topics = new ArrayList<>(Topics.ALL);
        topics.add(Topics.DEAD_LETTERS);
        KafkaBroker.createTopics(broker.bootstrapServers(), topics, PARTITIONS);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        keys = generator.generateKeyPair();
        publicKey = dir.resolve("issuer-public-key.pem");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
    }

    /** An application process (not started) with these properties on top of the wiring. */
    AppProcess app(String name, Map<String, String> extra) throws Exception {
        return app(name, extra, TEST_JVM);
    }

    /** An application process (not started) with these properties and JVM options. */
    public AppProcess app(String name, Map<String, String> extra, List<String> jvmOptions) throws Exception {
        return app(name, extra, jvmOptions, Path.of(System.getProperty("java.home")));
    }

    /** An application process (not started) with these properties and JVM options, run by the JVM in {@code javaHome}. */
    public AppProcess app(String name, Map<String, String> extra, List<String> jvmOptions, Path javaHome)
            throws Exception {
        return app(name, extra, Map.of(), jvmOptions, javaHome);
    }

    /**
     * An application process (not started) with these properties, these environment variables on top of the wiring's
     * (as a pod's manifest sets them), and these JVM options, run by the JVM in {@code javaHome}.
     */
    public AppProcess app(String name, Map<String, String> extra, Map<String, String> extraEnvironment,
            List<String> jvmOptions, Path javaHome) throws Exception {
        Map<String, String> properties = new HashMap<>();
        properties.put("kafka.bootstrap.servers", broker.bootstrapServers());
        properties.put("quarkus.dynamodb.endpoint-override", dynalite.endpoint());
        for (String service : List.of("dynamodb", "s3")) {
            properties.put("quarkus." + service + ".aws.region", "us-east-1");
            properties.put("quarkus." + service + ".aws.credentials.type", "static");
            properties.put("quarkus." + service + ".aws.credentials.static-provider.access-key-id", "test");
            properties.put("quarkus." + service + ".aws.credentials.static-provider.secret-access-key", "test");
        }
        properties.put("cabinet.table.create-if-missing", "true");
        properties.put("cabinet.projection.stuck-after", "5s");
        // The process's name is its stable identity, as a pod's name is (HOSTNAME): restarted under it, its consumers
        // take their partitions back at once (static membership) instead of waiting for the killed ones' sessions.
        properties.put("cabinet.projection.instance-id", name);
        // No readiness-down delay before a stop (prod has 5 s for routers to notice): these processes are stopped and
        // restarted many times; a test of rolling updates sets its own.
        properties.put("quarkus.shutdown.delay", "0s");
        // One broker: no follower can hold a record back from the high watermark.
        properties.put("cabinet.events.replica-lag", "0s");
        properties.putAll(extra);
        Map<String, String> environment = new HashMap<>(Map.of(
                "CABINET_JWT_ISSUER", CrashClient.ISSUER,
                "CABINET_JWT_PUBLIC_KEY_LOCATION", "file:" + publicKey,
                "CABINET_JWT_AUDIENCE", CrashClient.AUDIENCE,
                "CABINET_CURSOR_SECRET", CURSOR_SECRET,
                // No KMS here: the people's data keys are wrapped by a local key, as in dev mode.
                "CABINET_KEY_WRAPPING", "local",
                "CABINET_LOCAL_WRAPPING_KEY", "cHJvY2Vzcy10ZXN0LWxvY2FsLXdyYXBwaW5nLWtleSE="));
        environment.putAll(extraEnvironment);
        AppProcess app = new AppProcess(name, FreePorts.pick(), properties, environment, dir, jvmOptions,
                recordAwsCalls, javaHome);
        apps.add(app);
        return app;
    }

    /** A process running exactly this command (see {@link AppProcess#container}), stopped with the harness. */
    public AppProcess container(String name, int port, List<String> command, Map<String, String> environment,
            Path workingDirectory) {
        AppProcess app = AppProcess.container(name, port, command, environment, workingDirectory, dir);
        apps.add(app);
        return app;
    }

    /** The certificate (PEM) of the broker's authenticated listener: what its clients trust. */
    public Path brokerCertificate() {
        if (brokerCertificate == null) {
            throw new IllegalStateException("this harness's broker has no authenticated listener (see #secured)");
        }
        return brokerCertificate;
    }

    /** The identity provider's public key (PEM) that the harness's clients sign for. */
    public Path publicKey() {
        return publicKey;
    }

    public CrashClient client(AppProcess app) {
        return new CrashClient(app::uri, keys.getPrivate());
    }

    /** A client of the store itself, for what a test must see or change behind the application's back. */
    public DynamoDbClient dynamo() {
        return DynamoDbClient.builder().endpointOverride(URI.create(dynalite.endpoint())).region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    @Override
    public void close() throws Exception {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting already: this is the hook
        }
        for (AppProcess app : apps) {
            app.close();
        }
        broker.close();
        dynalite.close();
    }

    /**
     * Stops the processes when the test JVM exits without closing the harness (Ctrl-C of a benchmark or a fault
     * schedule, a fork's timeout): they run in process groups of their own, which a signal to the build's group misses.
     */
    private void stopQuietly() {
        try {
            close();
        } catch (Exception e) {
            System.err.println("could not stop the processes of " + dir + ": " + e);
        }
    }

}
