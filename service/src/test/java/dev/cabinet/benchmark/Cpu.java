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
        return overThreads(pid, task -> {
            String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).trim();
            return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")
                    ? stat(Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII)) : 0;
        });
    }

    /**
     * The time the process's threads spent runnable but waiting for a core ({@code /proc/<pid>/task/*}/schedstat, its
     * second field, the scheduler's run delay in nanoseconds), summed over threads: over a phase, divided by the phase's
     * length, the average number of its threads that were ready to run and had no core. Threads that ended take their
     * waits with them, so this too is a bound from below.
     */
    static double waitingSeconds(long pid) {
        return overThreads(pid, task -> {
            String[] fields = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII).trim().split(" ");
            return Long.parseLong(fields[1]) / 1e9;
        });
    }

    /**
     * The machine's CPU time since boot from the first line of {@code /proc/stat}, in clock ticks over all cores: busy
     * (user, nice, system, irq, softirq), stolen (time the hypervisor ran something else while a vCPU had work) and
     * all (those, idle and iowait).
     */
    static MachineTicks machine() {
        try {
            String line = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII).get(0);
            String[] fields = line.trim().split("\\s+");
            long[] ticks = new long[8];
            for (int i = 0; i < ticks.length; i++) {
                ticks[i] = Long.parseLong(fields[i + 1]);
            }
            long busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6];
            long steal = ticks[7];
            return new MachineTicks(busy, steal, busy + steal + ticks[3] + ticks[4]);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** See {@link #machine()}. */
    record MachineTicks(long busy, long stolen, long all) {

        /** "both cores x% busy, y% stolen" from {@code start} until this. */
        String since(MachineTicks start) {
            double all = Math.max(1, this.all - start.all);
            return String.format("the machine's cores %.0f%% busy, %.1f%% stolen by the hypervisor",
                    (busy - start.busy) / all * 100, (stolen - start.stolen) / all * 100);
        }
    }

    /** Sums a figure over the process's threads, skipping those that end while they are read. */
    private static double overThreads(long pid, ThreadFigure figure) {
        double sum = 0;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    sum += figure.of(task);
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return sum;
    }

    /** A figure read from one thread's directory under /proc/<pid>/task. */
    private interface ThreadFigure {
        double of(Path task) throws IOException;
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
