package dev.cabinet.devservices.launcher;

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
        ProcessHandle orphan = orphanedSleep();
        try {
            new OrphanRegistry(stateDir).record("kafka", orphan);

            // A new JVM's registry reads the same folder: the recorded process is still the same one, so it goes.
            new OrphanRegistry(stateDir).reapOrphans();

            orphan.onExit().get(20, TimeUnit.SECONDS);
            assertFalse(orphan.isAlive());
            assertFalse(Files.exists(stateDir.resolve("kafka.pid")));
        } finally {
            orphan.destroyForcibly();
        }
    }

    @Test
    void aChildOfThisJvmIsNotAnOrphan() throws Exception {
        Process child = new ProcessBuilder("sleep", "300").start();
        try {
            new OrphanRegistry(stateDir).record("dynalite", child.toHandle());

            new OrphanRegistry(stateDir).reapOrphans();

            assertTrue(child.isAlive());
        } finally {
            child.destroyForcibly();
        }
    }

    /** A process whose parent has exited, as a killed JVM leaves its children. */
    private static ProcessHandle orphanedSleep() throws IOException, InterruptedException {
        Process shell = new ProcessBuilder("sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!").start();
        String pid = new String(shell.getInputStream().readAllBytes()).trim();
        shell.waitFor();
        return ProcessHandle.of(Long.parseLong(pid)).orElseThrow();
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
