package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A single-node KRaft Kafka broker in a child JVM on free loopback ports: a plaintext listener, and on request a second
 * one as a production cluster's clients meet it (TLS, SCRAM-SHA-512, ACLs), where only the plaintext listener's
 * anonymous clients are super users.
 */
public final class KafkaBroker implements AutoCloseable {

    /**
     * The authenticated listener: TLS with this PKCS12 keystore (its certificate must name 127.0.0.1), SCRAM-SHA-512,
     * and Kafka's standard authorizer, which allows a user only what an ACL grants it.
     */
    public record Secured(Path keystore, String keystorePassword) {
    }

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final int NODE_ID = 1;

    private final List<String> command;
    private final ClassArchive archive;
    private final Path dir;
    private final OrphanRegistry registry;
    private final Duration startTimeout;
    private final int port;
    private final int securedPort;
    private ChildProcess process;

    private KafkaBroker(List<String> command, ClassArchive archive, Path dir, OrphanRegistry registry,
            Duration startTimeout, int port, int securedPort) {
        this.command = command;
        this.archive = archive;
        this.dir = dir;
        this.registry = registry;
        this.startTimeout = startTimeout;
        this.port = port;
        this.securedPort = securedPort;
    }

    public static KafkaBroker start(LaunchSettings settings, Path stateDir, OrphanRegistry registry) {
        return start(settings, stateDir, registry, null);
    }

    /** A broker with the authenticated listener too, unless {@code secured} is null. */
    public static KafkaBroker start(LaunchSettings settings, Path stateDir, OrphanRegistry registry, Secured secured) {
        int port = FreePorts.pick();
        int controllerPort = FreePorts.pick();
        int securedPort = secured == null ? 0 : FreePorts.pick();
        Path dir = stateDir.resolve("kafka-" + port);
        Path properties = dir.resolve("server.properties");
        writeServerProperties(properties, dir.resolve("data"), port, controllerPort, securedPort, secured);

        String classpath = MavenClasspath.kafka(settings.kafkaVersion());
        List<String> jvmOptions = jvmOptions(settings.brokerJvmOptions());
        ClassArchive archive = ClassArchive.of("kafka", JAVA, jvmOptions, classpath);
        List<String> options = new ArrayList<>(jvmOptions);
        options.addAll(archive.options());
        List<String> java = javaCommand(options, classpath);

        List<String> tool = javaCommand(jvmOptions, classpath);
        KafkaStorage.format(dir.resolve("data"), NODE_ID, classpath, UserCache.FOLDER,
                data -> runStorageTool(tool, data, dir, settings.startTimeout()));

        List<String> server = new ArrayList<>(java);
        server.addAll(List.of("kafka.Kafka", properties.toString()));
        KafkaBroker broker = new KafkaBroker(server, archive, dir, registry, settings.startTimeout(), port,
                securedPort);
        broker.run();
        return broker;
    }

    /**
     * Stops the broker (SIGTERM, so it shuts down cleanly) and starts it again on the same port with the same data:
     * what a rolling restart of a real cluster's broker looks like to its clients.
     */
    public synchronized void restart() {
        stop();
        run();
    }

    private synchronized void run() {
        process = ChildProcess.start("kafka", command, dir, dir.resolve("broker.log"), registry);
        try {
            FreePorts.await("Kafka broker", process, startTimeout, this::answers);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return FreePorts.LOOPBACK + ":" + port;
    }

    /** The authenticated listener's address (TLS, SCRAM-SHA-512, ACLs enforced). */
    public String securedBootstrapServers() {
        if (securedPort == 0) {
            throw new IllegalStateException("this broker was started without the authenticated listener");
        }
        return FreePorts.LOOPBACK + ":" + securedPort;
    }

    /** Creates the topics (missing ones only) so that consumers never wait on auto-creation or a rebalance for it. */
    public static void createTopics(String bootstrapServers, List<String> topics, int partitions) {
        if (topics.isEmpty()) {
            return;
        }
        try (Admin admin = admin(bootstrapServers)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = topics.stream().distinct().filter(t -> !existing.contains(t))
                    .map(t -> new NewTopic(t, partitions, (short) 1).configs(Map.of("retention.ms", "-1")))
                    .collect(Collectors.toList());
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("could not create the topics " + topics + ": " + e.getCause(), e);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not create the topics " + topics + ": " + e, e);
        }
    }

    @Override
    public synchronized void close() {
        stop();
    }

    private void stop() {
        if (process.stop()) {
            archive.keep();   // written as the broker exited, the first time
        }
    }

    private boolean answers() {
        if (!FreePorts.accepts(port)) {
            return false;
        }
        try (Admin admin = admin(bootstrapServers())) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private static Admin admin(String bootstrapServers) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        return Admin.create(config);
    }

    private static List<String> jvmOptions(String options) {
        return Arrays.stream(options.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList();
    }

    private static List<String> javaCommand(List<String> jvmOptions, String classpath) {
        List<String> command = new ArrayList<>();
        command.add(JAVA.toString());
        command.addAll(jvmOptions);
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
        command.add("-cp");
        command.add(classpath);
        return command;
    }

    /** A cluster id that StorageTool cannot mistake for an option: random ids start with '-' about once in 64. */
    private static String clusterId() {
        String id = Uuid.randomUuid().toString();
        while (id.startsWith("-")) {
            id = Uuid.randomUuid().toString();
        }
        return id;
    }

    private static void writeServerProperties(Path file, Path dataDir, int port, int controllerPort, int securedPort,
            Secured secured) {
        String securedListener = secured == null ? "" : ",SECURED://127.0.0.1:" + securedPort;
        List<String> securedSettings = secured == null ? List.of() : List.of(
                "listener.name.secured.sasl.enabled.mechanisms=SCRAM-SHA-512",
                "listener.name.secured.scram-sha-512.sasl.jaas.config="
                        + "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "listener.name.secured.ssl.keystore.type=PKCS12",
                "listener.name.secured.ssl.keystore.location=" + secured.keystore(),
                "listener.name.secured.ssl.keystore.password=" + secured.keystorePassword(),
                // Every request is authorized; the plaintext listener's and the controller's anonymous clients (the
                // tests' own, and the broker's) may do anything, anyone else what an ACL allows.
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users=User:ANONYMOUS");
        String text = String.join("\n",
                "process.roles=broker,controller",
                "node.id=" + NODE_ID,
                "controller.quorum.voters=" + NODE_ID + "@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort + securedListener,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + securedListener,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
                        + (secured == null ? "" : ",SECURED:SASL_SSL"),
                String.join("\n", securedSettings),
                "log.dirs=" + dataDir,
                "num.partitions=1",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=6",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                // No other broker could take over from this one, so fencing it helps nothing. Paused as a whole (the
                // fault schedule's SIGSTOP, a laptop asleep), its own controller fenced it at the resume, after 9 s
                // without its heartbeat; the group coordinator was unloaded and loaded back with members it had just
                // expired, which fenced the rejoined consumers for a session (docs/faults.md, seventh run). 90 s covers
                // the schedule's longest pause (60 s); longer would hold up a restart after a SIGKILL just as long (a
                // restarted controller refuses the broker's new registration until the old one's session ends).
                "broker.session.timeout.ms=90000",
                "log.flush.interval.messages=9223372036854775807",
                "");
        try {
            Files.createDirectories(dataDir);
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Formats {@code data} with Kafka's storage tool, in a JVM of its own (a properties file of its own names it). */
    private static void runStorageTool(List<String> java, Path data, Path dir, Duration timeout) {
        Path properties = data.resolveSibling("format.properties");
        writeServerProperties(properties, data, FreePorts.pick(), FreePorts.pick(), 0, null);
        List<String> command = new ArrayList<>(java);
        command.addAll(List.of("kafka.tools.StorageTool", "format", "-t", clusterId(), "-c", properties.toString()));
        try {
            Path log = dir.resolve("format.log");
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Kafka storage format did not finish within " + timeout);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Kafka storage format failed: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
