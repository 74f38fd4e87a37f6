package dev.cabinet.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time (user + system, all threads) from {@code /proc/<pid>/stat}: what serving requests cost the
 * serving JVM, whatever else shares the cores.
 */
final class Cpu {

    /** Clock ticks per second, in which /proc counts CPU time. */
    private static final double TICKS = ticks();

    private Cpu() {
    }

    static double seconds(long pid) {
        try {
            return stat(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The CPU time of the process's JIT compiler threads (HotSpot names them "C1 CompilerThreadN" and "C2
     * CompilerThreadN"; the kernel keeps 15 characters): how much of a process's CPU is compiling rather than running.
     * A compiler thread that ended takes its time with it, so this is a bound from below.
     */
    static double compilerSeconds(long pid) {
        double seconds = 0;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).trim();
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        seconds += stat(Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII));
                    }
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return seconds;
    }

    private static double stat(String stat) {
        // after the command name in parentheses: state is field 3, utime 14 and stime 15
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS;
    }

    private static double ticks() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return getconf.waitFor() == 0 ? Double.parseDouble(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
