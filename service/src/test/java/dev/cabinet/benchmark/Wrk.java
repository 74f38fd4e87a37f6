package dev.cabinet.benchmark;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk (Debian's package) as the closed-loop load generator: one thread, a connection per caller, HTTP/1.1 keep-alive.
 * It has no open loop without coordinated omission (that is wrk2, which Debian does not package), so constant-rate
 * phases stay on {@link Load#constantRate}. benchmark/run installs it when missing; without it, everything runs on
 * the JDK's client.
 */
final class Wrk {

    private Wrk() {
    }

    static boolean available() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, "wrk"))) {
                return true;
            }
        }
        return false;
    }

    /** What one wrk run measured, with the CPU seconds wrk itself used (user + system). */
    record Run(Load.Result result, double cpuSeconds) {
    }

    /**
     * {@code connections} callers back to back for {@code duration} (after an unmeasured tenth of it, as
     * {@link Load#closedLoop}), each GET answered with a status other than 2xx or 3xx counted as failed.
     */
    static Run closedLoop(String name, URI uri, Map<String, String> headers, int connections, Duration duration) {
        return closedLoop(name, uri, headers, connections, duration, () -> { });
    }

    /** The same, calling {@code whenTimed} between the warm-up and the measured run (to read CPU counters). */
    static Run closedLoop(String name, URI uri, Map<String, String> headers, int connections, Duration duration,
            Runnable whenTimed) {
        run(uri, headers, connections, duration.dividedBy(10));
        whenTimed.run();
        String out = run(uri, headers, connections, duration);
        long completed = Math.round(number(out, "(\\d+) requests in"));
        double seconds = seconds(text(out, "requests in ([0-9.]+\\w+),"));
        long failed = Math.round(numberOr(out, "Non-2xx or 3xx responses: (\\d+)", 0));
        Matcher errors = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)")
                .matcher(out);
        if (errors.find()) {
            for (int i = 1; i <= 4; i++) {
                failed += Long.parseLong(errors.group(i));
            }
        }
        Load.Result result = new Load.Result(name, "wrk", completed - failed, failed, seconds,
                millis(text(out, "\\n\\s+50%\\s+(\\S+)")), millis(text(out, "\\n\\s+99%\\s+(\\S+)")),
                millis(text(out, "Latency\\s+\\S+\\s+\\S+\\s+(\\S+)")));
        // bash's `times`: the second line is the children's user and system time
        Matcher times = Pattern.compile("\\n(\\d+)m([0-9.]+)s (\\d+)m([0-9.]+)s\\s*$").matcher(out);
        double cpu = times.find() ? Integer.parseInt(times.group(1)) * 60 + Double.parseDouble(times.group(2))
                + Integer.parseInt(times.group(3)) * 60 + Double.parseDouble(times.group(4)) : Double.NaN;
        return new Run(Load.finished(result), cpu);
    }

    private static String run(URI uri, Map<String, String> headers, int connections, Duration duration) {
        List<String> command = new ArrayList<>(List.of("bash", "-c", "wrk \"$@\" && times", "wrk", "-t1",
                "-c" + connections, "-d" + Math.max(1, duration.toMillis() / 1000) + "s", "--latency", "--timeout", "30s"));
        headers.forEach((header, value) -> command.addAll(List.of("-H", header + ": " + value)));
        command.add(uri.toString());
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException("wrk failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String text(String out, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(out);
        if (!matcher.find()) {
            throw new IllegalStateException("wrk's output has no match for " + regex + ":\n" + out);
        }
        return matcher.group(1);
    }

    private static double number(String out, String regex) {
        return Double.parseDouble(text(out, regex));
    }

    private static double numberOr(String out, String regex, double otherwise) {
        Matcher matcher = Pattern.compile(regex).matcher(out);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : otherwise;
    }

    /** wrk's durations: 812.00us, 1.23ms, 2.00s, 1.50m. */
    static double millis(String value) {
        Matcher matcher = Pattern.compile("([0-9.]+)(us|ms|s|m)").matcher(value);
        if (!matcher.matches()) {
            throw new IllegalStateException("not a wrk duration: " + value);
        }
        double number = Double.parseDouble(matcher.group(1));
        return switch (matcher.group(2)) {
            case "us" -> number / 1000;
            case "ms" -> number;
            case "s" -> number * 1000;
            default -> number * 60_000;
        };
    }

    private static double seconds(String value) {
        return millis(value) / 1000;
    }
}
