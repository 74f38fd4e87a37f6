package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker's storage is formatted once per Kafka classpath and copied after that, each copy naming a cluster and a
 * directory of its own; a real broker starts on such a copy.
 */
class KafkaStorageTest {

    private static final String JARS = "/m2/kafka_2.13-4.1.2.jar:/m2/kafka-server-4.1.2.jar";
    private static final byte[] FEATURES = {0, 1, 2, 3};

    @TempDir
    Path cache;
    @TempDir
    Path state;

    private final AtomicInteger toolRuns = new AtomicInteger();

    /** Stands in for the storage tool: writes its checkpoint (and a meta.properties the copies must not share). */
    private final Consumer<Path> tool = data -> {
        toolRuns.incrementAndGet();
        try {
            Files.write(data.resolve(KafkaStorage.BOOTSTRAP), FEATURES);
            Files.writeString(data.resolve(KafkaStorage.META), "cluster.id=from-the-tool\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @Test
    void theToolRunsOncePerClasspathAndEveryDirectoryGetsItsOwnIds() throws IOException {
        Path first = state.resolve("first");
        Path second = state.resolve("second");
        KafkaStorage.format(first, 1, JARS, cache, tool);
        KafkaStorage.format(second, 1, JARS, cache, tool);

        assertEquals(1, toolRuns.get());
        for (Path data : List.of(first, second)) {
            assertArrayEquals(FEATURES, Files.readAllBytes(data.resolve(KafkaStorage.BOOTSTRAP)));
            Properties meta = meta(data);
            assertEquals("1", meta.getProperty("version"));
            assertEquals("1", meta.getProperty("node.id"));
        }
        assertNotEquals(meta(first).getProperty("cluster.id"), meta(second).getProperty("cluster.id"));
        assertNotEquals(meta(first).getProperty("directory.id"), meta(second).getProperty("directory.id"));
        try (var left = Files.list(cache)) {
            assertEquals(1, left.count(), "only the checkpoint stays in the cache, no scratch directory");
        }

        KafkaStorage.format(state.resolve("third"), 1, JARS + ":/m2/kafka-clients-4.1.2.jar", cache, tool);
        assertEquals(2, toolRuns.get(), "another classpath is another release's features");
    }

    @Test
    void aClasspathWithADirectoryIsFormattedByTheToolEveryTime() throws IOException {
        String classes = JARS + ":/work/kafka/classes";
        KafkaStorage.format(state.resolve("first"), 1, classes, cache, tool);
        KafkaStorage.format(state.resolve("second"), 1, classes, cache, tool);

        assertEquals(2, toolRuns.get());
        assertEquals("from-the-tool", meta(state.resolve("second")).getProperty("cluster.id"));
        try (var left = Files.list(cache)) {
            assertFalse(left.findAny().isPresent());
        }
    }

    @Test
    void aBrokerStartsOnCopiedStorage() throws Exception {
        OrphanRegistry registry = new OrphanRegistry(state.resolve("pids"));
        // The first start may make the cache's checkpoint; the second starts from a copy of it for certain.
        KafkaBroker.start(LaunchSettings.defaults(), state, registry).close();
        try (KafkaBroker broker = KafkaBroker.start(LaunchSettings.defaults(), state, registry);
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers()))) {
            String port = broker.bootstrapServers().substring(broker.bootstrapServers().lastIndexOf(':') + 1);
            Path data = state.resolve("kafka-" + port).resolve("data");
            assertFalse(Files.exists(state.resolve("kafka-" + port).resolve("format.log")), "no storage tool ran");
            assertEquals(meta(data).getProperty("cluster.id"), admin.describeCluster().clusterId().get());
            assertTrue(Files.isRegularFile(data.resolve(KafkaStorage.BOOTSTRAP)));
        }
    }

    private static Properties meta(Path data) throws IOException {
        Properties meta = new Properties();
        try (Reader in = Files.newBufferedReader(data.resolve(KafkaStorage.META))) {
            meta.load(in);
        }
        return meta;
    }
}
