package dev.cabinet.devservices.deployment;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import dev.cabinet.devservices.launcher.Dynalite;
import dev.cabinet.devservices.launcher.StoreHooks;
import dev.cabinet.devservices.launcher.KafkaBroker;
import dev.cabinet.devservices.launcher.OrphanRegistry;
import dev.cabinet.devservices.launcher.S3Proxy;
import dev.cabinet.devservices.launcher.StaleState;

/**
 * The broker, dynalite and s3proxy started for one dev-mode session or one test JVM. Quarkus augments each test profile in a
 * class loader of its own, so a static field is not enough to share them: they are kept in one JVM-wide registry that
 * holds JDK types only (each child as a map entry of its address and an {@link AutoCloseable}). Started pieces are never
 * restarted while the JVM lives: a test profile that configures its own Kafka simply does not get this broker's address.
 */
final class RunningInfrastructure {

    private static final Logger LOG = Logger.getLogger(RunningInfrastructure.class);
    private static final String REGISTRY = "dev.cabinet.devservices.running";
    private static final String KAFKA = "kafka";
    private static final String KAFKA_CONTAINER = "kafka-testcontainers";
    private static final String DYNALITE = "dynalite";
    private static final String S3PROXY = "s3proxy";
    /**
     * {@link Runnable}s (a JDK type every class loader shares) that stop s3proxy and start it again on its port with its
     * objects: how a test shows that a side effect on the object store survives the store's outage.
     */
    static final String S3PROXY_STOP = "dev.cabinet.devservices.s3proxy.stop";
    static final String S3PROXY_START = "dev.cabinet.devservices.s3proxy.start";
    private static final String SHUTDOWN_HOOK = "shutdown-hook";
    /** A {@link CountDownLatch} the shutdown hook waits on in dev mode, counted down once the application stopped. */
    private static final String AFTER_APPLICATION = "after-application";
    /** The longest the hook waits for the application: its drain (20 s) and shutdown delay, with room to spare. */
    private static final Duration APPLICATION_STOP = Duration.ofSeconds(60);
    /** A {@link #provide} begun early ({@link #startInBackground}): a CompletableFuture of its config. */
    private static final String STARTING = "starting";
    /** How long stopped children's state stays for a look (their logs, a broker's data) before a start deletes it. */
    private static final Duration STATE_KEPT = Duration.ofHours(1);

    private RunningInfrastructure() {
    }

    /**
     * Begins {@link #provide} on a thread of its own, unless one is underway, so that the broker, dynalite and s3proxy
     * start while the rest of the application is augmented: dev mode answered about 5 s sooner (docs/dev-services.md).
     */
    static void startInBackground(DevServicesSettings settings, Path stateDir) {
        Map<String, Object> running = registry();
        synchronized (running) {
            stopAtExit(running, new OrphanRegistry(stateDir.resolve("pids")), stateDir);
        }
        running.computeIfAbsent(STARTING, key -> {
            List<String> missing = new ArrayList<>();
            if (settings.startKafka() && !running.containsKey(KAFKA) && !running.containsKey(KAFKA_CONTAINER)) {
                missing.add("a Kafka broker");
            }
            if (settings.startDynalite() && !running.containsKey(DYNALITE)) {
                missing.add("dynalite");
            }
            if (settings.startS3Proxy() && !running.containsKey(S3PROXY)) {
                missing.add("s3proxy");
            }
            if (!missing.isEmpty()) {
                LOG.infof("Starting %s (Docker-free Dev Services)", String.join(", ", missing));
            }
            return CompletableFuture.supplyAsync(() -> provide(settings, stateDir));
        });
    }

    /** The config of the start {@link #startInBackground} began, once it is done; or {@link #provide} now. */
    @SuppressWarnings("unchecked")
    static Map<String, String> provided(DevServicesSettings settings, Path stateDir) {
        Object starting = registry().remove(STARTING);
        return starting instanceof CompletableFuture<?> future ? (Map<String, String>) await(future)
                : provide(settings, stateDir);
    }

    /** Starts what {@code settings} asks for and is not running yet; returns the config to hand to the application. */
    static Map<String, String> provide(DevServicesSettings settings, Path stateDir) {
        Map<String, Object> running = registry();
        synchronized (running) {
            OrphanRegistry pids = new OrphanRegistry(stateDir.resolve("pids"));
            stopAtExit(running, pids, stateDir);
            Map<String, String> config = new HashMap<>();
            // dynalite starts beside the broker rather than after it: together they are ready in the broker's time.
            CompletableFuture<Dynalite> dynaliteStart = settings.startDynalite() && !running.containsKey(DYNALITE)
                    ? CompletableFuture.supplyAsync(() -> Dynalite.start(settings.launch(), stateDir, pids))
                    : null;
            CompletableFuture<S3Proxy> s3proxyStart = settings.startS3Proxy() && !running.containsKey(S3PROXY)
                    ? CompletableFuture.supplyAsync(() -> S3Proxy.start(settings.launch(), stateDir, pids, settings.bucket()))
                    : null;
            long begin = System.nanoTime();
            try {
                if (settings.startKafka()) {
                    boolean container = settings.kafkaMode() == DevServicesSettings.KafkaMode.TESTCONTAINERS;
                    String kafka = container ? KAFKA_CONTAINER : KAFKA;
                    if (!running.containsKey(kafka)) {
                        if (container) {
                            Map.Entry<String, AutoCloseable> started =
                                    TestcontainersKafka.start(settings.kafkaVersion());
                            if (started != null) {
                                running.put(kafka, started);
                                LOG.infof("Kafka container (Testcontainers) ready at %s in %d ms", started.getKey(),
                                        millisSince(begin));
                            }
                        } else {
                            KafkaBroker broker = KafkaBroker.start(settings.launch(), stateDir, pids);
                            running.put(kafka, child(broker.bootstrapServers(), broker));
                            LOG.infof("Kafka broker ready at %s in %d ms", broker.bootstrapServers(),
                                    millisSince(begin));
                        }
                    }
                    if (running.containsKey(kafka)) {
                        String bootstrap = child(running, kafka).getKey();
                        KafkaBroker.createTopics(bootstrap, settings.topics(), settings.partitions());
                        config.put(DevServicesSettings.KAFKA_BOOTSTRAP, bootstrap);
                    }
                }
            } catch (RuntimeException e) {
                if (dynaliteStart != null) {
                    dynaliteStart.thenAccept(Dynalite::close);
                }
                if (s3proxyStart != null) {
                    s3proxyStart.thenAccept(S3Proxy::close);
                }
                throw e;
            }
            try {
                useDynalite(settings, dynaliteStart, running, config, begin);
            } catch (RuntimeException e) {
                // s3proxy started beside dynalite and is not registered yet: nothing else would stop its JVM.
                if (s3proxyStart != null) {
                    s3proxyStart.thenAccept(S3Proxy::close);
                }
                throw e;
            }
            if (s3proxyStart != null) {
                S3Proxy s3proxy = await(s3proxyStart);
                running.put(S3PROXY, child(s3proxy.endpoint(), s3proxy));
                System.getProperties().put(S3PROXY_STOP, (Runnable) s3proxy::stop);
                System.getProperties().put(S3PROXY_START, (Runnable) s3proxy::startAgain);
                LOG.infof("s3proxy ready at %s with bucket %s in %d ms", s3proxy.endpoint(), settings.bucket(),
                        millisSince(begin));
            }
            if (settings.startS3Proxy()) {
                config.put(DevServicesSettings.S3_ENDPOINT, child(running, S3PROXY).getKey());
                // s3proxy serves buckets by path only (no virtual host is set), and accepts one key pair: the one it was given.
                config.put("quarkus.s3.path-style-access", "true");
                config.put("quarkus.s3.aws.region", "us-east-1");
                config.put("quarkus.s3.aws.credentials.type", "static");
                config.put("quarkus.s3.aws.credentials.static-provider.access-key-id", S3Proxy.ACCESS_KEY);
                config.put("quarkus.s3.aws.credentials.static-provider.secret-access-key", S3Proxy.SECRET_KEY);
            }
            return config;
        }
    }

    /** Registers dynalite once started, and gives the application its endpoint and the store hooks' settings. */
    private static void useDynalite(DevServicesSettings settings, CompletableFuture<Dynalite> dynaliteStart,
            Map<String, Object> running, Map<String, String> config, long begin) {
        if (dynaliteStart != null) {
            Dynalite dynalite = await(dynaliteStart);
            running.put(DYNALITE, child(dynalite.endpoint(), dynalite));
            LOG.infof("dynalite ready at %s in %d ms", dynalite.endpoint(), millisSince(begin));
        }
        if (settings.startDynalite()) {
            config.put(DevServicesSettings.DYNAMODB_ENDPOINT, child(running, DYNALITE).getKey());
            // Set on every start and reload, so a changed setting applies and a test profile without one has none.
            StoreHooks hooks = new StoreHooks(child(running, DYNALITE).getKey());
            hooks.indexLag(settings.gsiLag());
            if (!settings.gsiLag().isNone()) {
                LOG.infof("dynalite's index entries lag by %s (%s)", settings.gsiLag(), DevServicesSettings.GSI_LAG);
            }
            if (settings.throttles()) {
                hooks.throttle(settings.itemWriteLimit(), settings.partitionReadLimit(), "");
                LOG.infof("dynalite refuses an item past %s writes and a partition past %s reads a second (%s, %s)",
                        settings.itemWriteLimit(), settings.partitionReadLimit(),
                        DevServicesSettings.ITEM_WRITE_LIMIT, DevServicesSettings.PARTITION_READ_LIMIT);
            } else {
                hooks.noThrottle();
            }
            // dynalite needs SigV4 headers but does not check them: any static credentials do.
            config.put("quarkus.dynamodb.aws.region", "us-east-1");
            config.put("quarkus.dynamodb.aws.credentials.type", "static");
            config.put("quarkus.dynamodb.aws.credentials.static-provider.access-key-id", "dev");
            config.put("quarkus.dynamodb.aws.credentials.static-provider.secret-access-key", "dev");
        }
    }

    /**
     * Reaps what an earlier JVM left and registers the hook that stops this JVM's children when it exits, once. Dev mode
     * stops them when its curated application closes; tests, and anything else, only through this hook. (Deciding by
     * an empty registry let a start begun in the background, already registered as starting, skip the hook: every test
     * JVM then left its broker, dynalite and s3proxy running.) The state stopped children left more than an hour ago is
     * deleted beside the start, off its path ({@link StaleState}).
     */
    private static void stopAtExit(Map<String, Object> running, OrphanRegistry pids, Path stateDir) {
        if (!running.containsKey(SHUTDOWN_HOOK)) {
            pids.reapOrphans();
            CompletableFuture.runAsync(() -> StaleState.prune(stateDir, STATE_KEPT, Instant.now()));
            Thread hook = new Thread(RunningInfrastructure::stopAtJvmExit, "cabinet-devservices-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            running.put(SHUTDOWN_HOOK, hook);
        }
    }

    private static <T> T await(CompletableFuture<T> start) {
        try {
            return start.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw e;
        }
    }

    /** Whether what this JVM started is stopped when it exits (the shutdown hook is registered). */
    static boolean stoppedAtExit() {
        return registry().containsKey(SHUTDOWN_HOOK);
    }

    /**
     * In dev mode the children are stopped by the close task that runs once the application has stopped
     * ({@link #stopAfterTheApplication}); the JVM's shutdown hooks run all at once, so the hook waits for that task
     * (at most {@link #APPLICATION_STOP}) rather than taking the broker and the store away from an application still
     * draining its batches, which then waited out its whole drain (20 s) on Ctrl-C.
     */
    private static void stopAtJvmExit() {
        if (registry().get(AFTER_APPLICATION) instanceof CountDownLatch applicationStopped) {
            try {
                applicationStopped.await(APPLICATION_STOP.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stopAll();
    }

    /** Dev mode: what this JVM started is stopped after the application, by the curated application's close task. */
    static void stopAfterTheApplication() {
        registry().putIfAbsent(AFTER_APPLICATION, new CountDownLatch(1));
    }

    /** Stops everything started in this JVM (by any class loader) and forgets it. */
    static void stopAll() {
        Map<String, Object> running = registry();
        synchronized (running) {
            if (running.remove(AFTER_APPLICATION) instanceof CountDownLatch waiting) {
                waiting.countDown();
            }
            Object hook = running.remove(SHUTDOWN_HOOK);
            if (hook instanceof Thread && hook != Thread.currentThread()) {
                try {
                    Runtime.getRuntime().removeShutdownHook((Thread) hook);
                } catch (IllegalStateException alreadyShuttingDown) {
                    // the JVM is exiting: we are stopping the children right here anyway
                }
            }
            System.getProperties().remove(S3PROXY_STOP);
            System.getProperties().remove(S3PROXY_START);
            for (String name : new String[] { KAFKA, KAFKA_CONTAINER, DYNALITE, S3PROXY }) {
                Map.Entry<String, AutoCloseable> child = child(running, name);
                if (child != null) {
                    running.remove(name);
                    closeQuietly(name, child.getValue());
                }
            }
        }
    }

    /** An address and the process behind it, as a JDK type that every class loader sees as the same class. */
    static Map.Entry<String, AutoCloseable> child(String address, AutoCloseable process) {
        return new AbstractMap.SimpleImmutableEntry<>(address, process);
    }

    @SuppressWarnings("unchecked")
    private static Map.Entry<String, AutoCloseable> child(Map<String, Object> running, String name) {
        return (Map.Entry<String, AutoCloseable>) running.get(name);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> registry() {
        return (Map<String, Object>) System.getProperties().computeIfAbsent(REGISTRY, k -> new ConcurrentHashMap<>());
    }

    private static long millisSince(long nanoTime) {
        return (System.nanoTime() - nanoTime) / 1_000_000;
    }

    private static void closeQuietly(String name, AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warnf("could not stop %s: %s", name, e.getMessage());
        }
    }
}
