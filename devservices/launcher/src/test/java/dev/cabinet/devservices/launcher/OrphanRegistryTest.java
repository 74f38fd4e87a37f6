package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
            Path record = writeRecord("kafka", orphan, exitedProcess());

            // A new JVM's registry reads the same folder: the recorded process is still the same one, so it goes.
            new OrphanRegistry(stateDir).reapOrphans();

            orphan.onExit().get(20, TimeUnit.SECONDS);
            assertFalse(orphan.isAlive());
            assertFalse(Files.exists(record));
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

    @Test
    void aChildOfAnotherJvmThatStillRunsIsNotAnOrphan() throws Exception {
        ProcessHandle child = orphanedSleep();
        Process otherJvm = new ProcessBuilder("sleep", "300").start();   // stands for a second test fork, say
        try {
            Path record = writeRecord("kafka", child, identity(otherJvm.toHandle()));

            new OrphanRegistry(stateDir).reapOrphans();

            assertTrue(child.isAlive());
            assertTrue(Files.exists(record), "the record stays for whoever starts after that JVM is gone");
        } finally {
            child.destroyForcibly();
            otherJvm.destroyForcibly();
        }
    }

    @Test
    void twoChildrenOfOneNameHaveARecordEach() throws Exception {
        Process first = new ProcessBuilder("sleep", "300").start();
        Process second = new ProcessBuilder("sleep", "300").start();
        try {
            OrphanRegistry registry = new OrphanRegistry(stateDir);
            registry.record("kafka", first.toHandle());
            registry.record("kafka", second.toHandle());
            registry.forget("kafka", first.toHandle());

            try (var records = Files.list(stateDir)) {
                assertEquals(List.of("kafka-" + second.pid() + ".pid"),
                        records.map(f -> f.getFileName().toString()).toList());
            }
        } finally {
            first.destroyForcibly();
            second.destroyForcibly();
        }
    }

    /** What {@link OrphanRegistry#record} writes, for a child of {@code owner}. */
    private Path writeRecord(String name, ProcessHandle child, String owner) throws IOException {
        Path record = stateDir.resolve(name + "-" + child.pid() + ".pid");
        Files.writeString(record, identity(child) + " " + owner);
        return record;
    }

    private static String identity(ProcessHandle process) {
        return process.pid() + " " + process.info().startInstant().orElseThrow();
    }

    /** The pid and start time of a process that has exited, as the JVM a kill -9 ended. */
    private static String exitedProcess() throws Exception {
        Process process = new ProcessBuilder("sleep", "300").start();
        String identity = identity(process.toHandle());
        process.destroyForcibly().waitFor();
        return identity;
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
