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
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // after the command name in parentheses: state is field 3, utime 14 and stime 15
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
