package dev.cabinet.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording (profile settings) of a running instance, taken with jcmd around a load, and its CPU samples
 * summarised in one line: by the innermost frame outside the JDK, grouped by library, and the share under a few
 * frames of Cabinet's that a profile of the command path asks about.
 */
final class ProfileSummary {

    /** Frames whose share of all samples the summary gives: a sample counts when any frame of its stack starts so. */
    private static final Map<String, String> UNDER = new LinkedHashMap<>();

    static {
        UNDER.put("EventLog.append and its send", "dev.cabinet.eventlog.EventLog");
        UNDER.put("SmallRye Reactive Messaging", "io.smallrye.reactive.messaging");
        UNDER.put("Hibernate Validator", "org.hibernate.validator");
        UNDER.put("Cabinet's request and response filters", "dev.cabinet.auth.CredentialsFirst|dev.cabinet.http.RoleFilter"
                + "|dev.cabinet.idempotency.IdempotencyFilters|dev.cabinet.conditional.ETagFilter"
                + "|dev.cabinet.conditional.IfMatch"
                + "|dev.cabinet.consistency.ConsistencyTokenFilter|dev.cabinet.consistency.PreferWaitFilter");
        UNDER.put("context propagation", "io.smallrye.context");
    }

    private ProfileSummary() {
    }

    /**
     * Records the instance with the profile settings while {@code load} runs, into {@code file} (which {@link #of}
     * fails to read if jcmd could not write it).
     */
    static void record(long pid, Path file, Duration longest, Runnable load) throws Exception {
        CabinetBenchmark.jcmd(pid, "JFR.start", "name=command-path", "settings=profile",
                "duration=" + (longest.toSeconds() + 30) + "s");
        try {
            load.run();
        } finally {
            CabinetBenchmark.jcmd(pid, "JFR.stop", "name=command-path", "filename=" + file);
        }
    }

    /** "N samples: 13% org.jboss.resteasy, …; under: 12% EventLog.append and its send, …". */
    static String of(Path file) throws Exception {
        Map<String, Integer> innermost = new TreeMap<>();
        Map<String, Integer> under = new LinkedHashMap<>();
        UNDER.keySet().forEach(name -> under.put(name, 0));
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            innermost.merge(library(frames), 1, Integer::sum);
            for (Map.Entry<String, String> named : UNDER.entrySet()) {
                if (frames.stream().anyMatch(frame -> startsWithAny(type(frame), named.getValue()))) {
                    under.merge(named.getKey(), 1, Integer::sum);
                }
            }
        }
        int total = Math.max(1, samples);
        String libraries = innermost.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(14)
                .map(entry -> String.format("%.0f%% %s", 100.0 * entry.getValue() / total, entry.getKey()))
                .collect(Collectors.joining(", "));
        String frames = under.entrySet().stream()
                .map(entry -> String.format("%.0f%% %s", 100.0 * entry.getValue() / total, entry.getKey()))
                .collect(Collectors.joining(", "));
        return samples + " samples by the innermost frame outside the JDK: " + libraries + "; under: " + frames;
    }

    /** The first three parts of the package of the innermost frame that is not the JDK's, or the JDK when all are. */
    private static String library(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = type(frame);
            if (!startsWithAny(type, "java.|javax.|jdk.|sun.|com.sun.")) {
                String[] parts = type.split("\\.");
                return parts.length > 3 ? parts[0] + "." + parts[1] + "." + parts[2] : type;
            }
        }
        return "the JDK";
    }

    private static String type(RecordedFrame frame) {
        return frame.getMethod() == null ? "" : frame.getMethod().getType().getName();
    }

    private static boolean startsWithAny(String type, String prefixes) {
        for (String prefix : prefixes.split("\\|")) {
            if (type.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
