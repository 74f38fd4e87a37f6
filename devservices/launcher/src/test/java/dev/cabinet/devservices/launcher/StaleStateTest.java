package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaleStateTest {

    private static final Duration KEEP = Duration.ofHours(1);
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private static final Instant TWO_HOURS_AGO = NOW.minus(Duration.ofHours(2));

    @TempDir
    Path stateDir;

    @Test
    void stoppedChildrensStateGoesOnceItIsOlderThanTheKeptHour() throws IOException {
        Path oldBroker = broker(FreePorts.pick(), TWO_HOURS_AGO);
        Path oldS3 = folder("s3proxy-" + FreePorts.pick(), "s3proxy.log", TWO_HOURS_AGO);
        Path oldLog = file("dynalite-" + FreePorts.pick() + ".log", TWO_HOURS_AGO);
        Path recentBroker = broker(FreePorts.pick(), NOW.minus(Duration.ofMinutes(10)));
        Path pids = Files.createDirectories(stateDir.resolve("pids"));
        Path hooks = file("store-hooks.js", TWO_HOURS_AGO);

        assertEquals(3, StaleState.prune(stateDir, KEEP, NOW));

        assertFalse(Files.exists(oldBroker), "a broker's folder, its data included");
        assertFalse(Files.exists(oldS3));
        assertFalse(Files.exists(oldLog));
        assertTrue(Files.exists(recentBroker.resolve("data").resolve("meta.properties")), "kept for a look");
        assertTrue(Files.exists(pids) && Files.exists(hooks), "only a child's own state is touched");
    }

    @Test
    void aFolderWhoseLogChangedLatelyIsKeptHoweverOldTheFolder() throws IOException {
        Path broker = broker(FreePorts.pick(), TWO_HOURS_AGO);
        Files.setLastModifiedTime(broker.resolve("broker.log"), FileTime.from(NOW.minus(Duration.ofMinutes(1))));

        assertEquals(0, StaleState.prune(stateDir, KEEP, NOW));
        assertTrue(Files.exists(broker));
    }

    @Test
    void aChildWhosePortStillAnswersIsKept() throws IOException {
        try (ServerSocket running = new ServerSocket(0, 1, InetAddress.getByName(FreePorts.LOOPBACK))) {
            Path broker = broker(running.getLocalPort(), TWO_HOURS_AGO);

            assertEquals(0, StaleState.prune(stateDir, KEEP, NOW));
            assertTrue(Files.exists(broker), "another JVM's broker, quiet for two hours");
        }
    }

    @Test
    void noStateDirectoryIsNothingToDo() {
        assertEquals(0, StaleState.prune(stateDir.resolve("absent"), KEEP, NOW));
    }

    private Path broker(int port, Instant changed) throws IOException {
        Path dir = folder("kafka-" + port, "broker.log", changed);
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("meta.properties"), "node.id=1\n");
        Files.setLastModifiedTime(data, FileTime.from(changed));
        Files.setLastModifiedTime(dir, FileTime.from(changed));
        return dir;
    }

    private Path folder(String name, String log, Instant changed) throws IOException {
        Path dir = Files.createDirectories(stateDir.resolve(name));
        Files.setLastModifiedTime(Files.writeString(dir.resolve(log), "log\n"), FileTime.from(changed));
        Files.setLastModifiedTime(dir, FileTime.from(changed));
        return dir;
    }

    private Path file(String name, Instant changed) throws IOException {
        Path file = Files.writeString(stateDir.resolve(name), "log\n");
        Files.setLastModifiedTime(file, FileTime.from(changed));
        return file;
    }
}
