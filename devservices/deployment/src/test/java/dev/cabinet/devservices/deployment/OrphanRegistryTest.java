package dev.cabinet.devservices.deployment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrphanRegistryTest {

    @TempDir
    Path stateDir;

    @Test
    void aChildLeftByAKilledJvmIsStoppedAtTheNextStart() throws Exception {
        Process child = new ProcessBuilder("sleep", "300").start();
        try {
            new OrphanRegistry(stateDir).record("kafka", child.toHandle());

            // A new JVM's registry reads the same folder: the recorded child is still the same process, so it goes.
            new OrphanRegistry(stateDir).reapOrphans();

            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the orphan should have been stopped");
            assertFalse(Files.exists(stateDir.resolve("kafka.pid")));
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aRecycledPidIsNeverMistakenForOurChild() throws Exception {
        Process unrelated = new ProcessBuilder("sleep", "300").start();
        try {
            // Same pid, another start time: what a pid recycled by the OS looks like.
            Files.writeString(stateDir.resolve("dynalite.pid"), unrelated.pid() + " 2000-01-01T00:00:00Z");

            new OrphanRegistry(stateDir).reapOrphans();

            assertTrue(unrelated.isAlive());
            assertFalse(Files.exists(stateDir.resolve("dynalite.pid")));
        } finally {
            unrelated.destroyForcibly();
        }
    }

    @Test
    void anUnreadableRecordIsDroppedWithoutStoppingTheStart() throws IOException {
        Files.writeString(stateDir.resolve("kafka.pid"), "not a pid");

        new OrphanRegistry(stateDir).reapOrphans();

        assertFalse(Files.exists(stateDir.resolve("kafka.pid")));
    }
}
