package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jboss.logging.Logger;

/**
 * Remembers the children it started (pid and start time, one file each, with the pid and start time of the JVM that
 * started them), so that the next start can stop what a killed JVM left running. Pid and start time together identify
 * a process: a recycled pid is never mistaken for ours. A child whose JVM still runs is no orphan, so JVMs of one
 * checkout that run at once (the test forks, dev mode beside a test run) never stop each other's.
 */
public final class OrphanRegistry {

    private static final Logger LOG = Logger.getLogger(OrphanRegistry.class);

    private final Path directory;

    public OrphanRegistry(Path directory) {
        this.directory = directory;
    }

    void record(String name, ProcessHandle handle) {
        String line = identity(handle) + " " + identity(ProcessHandle.current());
        try {
            Files.createDirectories(directory);
            Files.writeString(file(name, handle), line, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void forget(String name, ProcessHandle handle) {
        forget(file(name, handle));
    }

    private static void forget(Path record) {
        try {
            Files.deleteIfExists(record);
        } catch (IOException e) {
            LOG.debugf(e, "could not remove %s", record);
        }
    }

    /** Stops every process recorded here that is still the same process, and clears the records. */
    public void reapOrphans() {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (var files = Files.list(directory)) {
            files.filter(f -> f.getFileName().toString().endsWith(".pid")).forEach(this::reap);
        } catch (IOException e) {
            LOG.warnf("could not list %s to clean up orphans: %s", directory, e.getMessage());
        }
    }

    private void reap(Path pidFile) {
        try {
            String[] fields = Files.readString(pidFile, StandardCharsets.UTF_8).trim().split(" ");
            if (running(fields, 2).isPresent()) {
                return;   // the JVM that started it still runs (this one included): not an orphan; its record stays
            }
            Optional<ProcessHandle> process = running(fields, 0);
            if (process.isPresent()) {
                LOG.infof("Stopping %s (pid %s), left running by an earlier JVM that did not shut down",
                        pidFile.getFileName(), fields[0]);
                stop(process.get());
            }
            Files.deleteIfExists(pidFile);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("ignoring the unreadable record %s: %s", pidFile, e.getMessage());
            forget(pidFile);
        }
    }

    private static void stop(ProcessHandle process) {
        process.destroy();
        try {
            process.onExit().get(15, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The process named by the pid and start time at {@code fields[at]}, if it still runs; none if not recorded. */
    private static Optional<ProcessHandle> running(String[] fields, int at) {
        if (fields.length <= at) {
            return Optional.empty();
        }
        String recordedStart = fields.length > at + 1 ? fields[at + 1] : "-";
        return ProcessHandle.of(Long.parseLong(fields[at])).filter(p -> sameStart(p, recordedStart));
    }

    private static boolean sameStart(ProcessHandle process, String recordedStart) {
        return process.info().startInstant().map(Instant::toString).map(recordedStart::equals).orElse(false);
    }

    private static String identity(ProcessHandle process) {
        return process.pid() + " " + process.info().startInstant().map(Instant::toString).orElse("-");
    }

    private Path file(String name, ProcessHandle handle) {
        return directory.resolve(name + "-" + handle.pid() + ".pid");
    }
}
