package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A child process whose output goes to a log file, recorded in the orphan registry while it runs. */
final class ChildProcess implements AutoCloseable {

    private static final Path PERL = Path.of("/usr/bin/perl");
    private static final String SET_GROUP_AND_EXEC =
            "setpgrp(0, 0); exec { $ARGV[0] } @ARGV or die \"exec $ARGV[0]: $!\"";

    private final String name;
    private final Process process;
    private final Path logFile;
    private final OrphanRegistry registry;

    private ChildProcess(String name, Process process, Path logFile, OrphanRegistry registry) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.registry = registry;
    }

    static ChildProcess start(String name, List<String> command, Path workDir, Path logFile, OrphanRegistry registry) {
        try {
            Files.createDirectories(logFile.getParent());
            Process process = new ProcessBuilder(inOwnProcessGroup(command))
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            registry.record(name, process.toHandle());
            return new ChildProcess(name, process, logFile, registry);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + " (" + command.get(0) + ")", e);
        }
    }

    /**
     * The command run in a process group of its own, where Perl is (Debian's perl-base is essential; it sets the group
     * and execs the command, so the pid stays the child's). Otherwise a terminal's Ctrl-C, or a signal to dev mode's
     * process group, reached the broker, dynalite and s3proxy at the same instant as the application, which then spent
     * its whole drain (20 s) on a broker that was gone; in a group of their own they are stopped after the
     * application, by the Dev Services' close task or the JVM's shutdown hook. Not a session of its own
     * ({@code setsid}): the kernel's autogroup scheduling shares the cores between sessions, and each child in its own
     * session took an equal share with the whole build, which made verify's ITs half again slower.
     */
    static List<String> inOwnProcessGroup(List<String> command) {
        if (!Files.isExecutable(PERL)) {
            return command;
        }
        List<String> own = new ArrayList<>(command.size() + 4);
        own.addAll(List.of(PERL.toString(), "-e", SET_GROUP_AND_EXEC, "--"));
        own.addAll(command);
        return own;
    }

    /** Sends a signal to this child, by its pid (only ever to a process we started). */
    void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    Path logFile() {
        return logFile;
    }

    String logTail() {
        return LogFiles.tail(logFile, 30);
    }

    /** SIGTERM, then SIGKILL if the child has not exited in time (Kafka flushes its logs on SIGTERM). */
    @Override
    public void close() {
        stop();
    }

    /** As {@link #close()}; answers whether the child ended by itself after SIGTERM (not killed). */
    boolean stop() {
        boolean ended = false;
        process.destroy();
        try {
            ended = process.waitFor(15, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        registry.forget(name, process.toHandle());
        return ended;
    }
}
