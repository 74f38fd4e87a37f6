package dev.cabinet.devservices.deployment;

import java.util.HashMap;
import java.util.Map;

import org.jboss.logging.Logger;

/** The broker and dynalite started for one dev-mode session or one test JVM, and the config they hand over. */
final class RunningInfrastructure implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RunningInfrastructure.class);

    private final KafkaBroker broker;
    private final Dynalite dynalite;
    private final Map<String, String> config;
    private final DevServicesSettings settings;
    private final Thread shutdownHook = new Thread(this::stopChildren, "cabinet-devservices-shutdown");

    private RunningInfrastructure(KafkaBroker broker, Dynalite dynalite, Map<String, String> config,
            DevServicesSettings settings) {
        this.broker = broker;
        this.dynalite = dynalite;
        this.config = Map.copyOf(config);
        this.settings = settings;
    }

    static RunningInfrastructure start(DevServicesSettings settings, java.nio.file.Path stateDir) {
        OrphanRegistry registry = new OrphanRegistry(stateDir.resolve("pids"));
        registry.reapOrphans();
        Map<String, String> config = new HashMap<>();
        KafkaBroker broker = null;
        Dynalite dynalite = null;
        try {
            if (settings.startKafka()) {
                long begin = System.nanoTime();
                broker = KafkaBroker.start(settings, stateDir, registry);
                broker.createTopics(settings.topics(), settings.partitions());
                config.put(DevServicesSettings.KAFKA_BOOTSTRAP, broker.bootstrapServers());
                LOG.infof("Kafka broker ready at %s in %d ms, topics %s with %d partitions", broker.bootstrapServers(),
                        (System.nanoTime() - begin) / 1_000_000, settings.topics(), settings.partitions());
            }
            if (settings.startDynalite()) {
                long begin = System.nanoTime();
                dynalite = Dynalite.start(settings, stateDir, registry);
                config.put(DevServicesSettings.DYNAMODB_ENDPOINT, dynalite.endpoint());
                // dynalite needs SigV4 headers but does not check them: any static credentials do.
                config.put("quarkus.dynamodb.aws.region", "us-east-1");
                config.put("quarkus.dynamodb.aws.credentials.type", "static");
                config.put("quarkus.dynamodb.aws.credentials.static-provider.access-key-id", "dev");
                config.put("quarkus.dynamodb.aws.credentials.static-provider.secret-access-key", "dev");
                LOG.infof("dynalite ready at %s in %d ms", dynalite.endpoint(), (System.nanoTime() - begin) / 1_000_000);
            }
            RunningInfrastructure running = new RunningInfrastructure(broker, dynalite, config, settings);
            // The curated application's close task normally stops us after the application; a test JVM can exit
            // without closing it, so the children must also go when the JVM does.
            Runtime.getRuntime().addShutdownHook(running.shutdownHook);
            return running;
        } catch (RuntimeException e) {
            closeQuietly(broker);
            closeQuietly(dynalite);
            throw e;
        }
    }

    Map<String, String> config() {
        return config;
    }

    /** Running infrastructure is reused only while the settings that shaped it stay the same. */
    boolean matches(DevServicesSettings other) {
        return settings.equals(other);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or about to: it stops the children
        }
        stopChildren();
    }

    private synchronized void stopChildren() {
        closeQuietly(broker);
        closeQuietly(dynalite);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warnf("could not stop %s: %s", closeable.getClass().getSimpleName(), e.getMessage());
        }
    }
}
