package dev.cabinet.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Freezes (SIGSTOP) and thaws (SIGCONT) the broker or dynalite that Dev Services started as children of this test JVM,
 * found among its own descendants by their command lines: an outage in which connections hang, as when a machine stalls.
 */
public final class Freezer implements AutoCloseable {

    private final String what;
    private final List<ProcessHandle> processes;

    private Freezer(String what, List<ProcessHandle> processes) {
        this.what = what;
        this.processes = processes;
    }

    /** Freezes the Kafka broker. */
    public static Freezer broker() {
        return freeze("the Kafka broker", "kafka.Kafka");
    }

    /** Freezes dynalite (the table). */
    public static Freezer store() {
        return freeze("dynalite", "dynalite/cli.js");
    }

    private static Freezer freeze(String what, String marker) {
        List<ProcessHandle> found = ProcessHandle.current().descendants()
                .filter(p -> commandLine(p).contains(marker))
                .toList();
        if (found.isEmpty()) {
            throw new IllegalStateException("no child process of this JVM runs " + what);
        }
        Freezer freezer = new Freezer(what, found);
        freezer.signal("STOP");
        return freezer;
    }

    /** The whole command line: the JDK's ProcessHandle.Info cuts it at 4 kB, before a broker's main class. */
    private static String commandLine(ProcessHandle process) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";   // it has exited
        }
    }

    /** Thaws what was frozen; also on close, so a failing test never leaves it frozen for the next. */
    public void thaw() {
        signal("CONT");
    }

    @Override
    public void close() {
        thaw();
    }

    private void signal(String signal) {
        for (ProcessHandle process : processes) {
            try {
                Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
                if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                    throw new IllegalStateException("kill -" + signal + " of " + what + " failed");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
