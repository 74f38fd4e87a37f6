package dev.cabinet.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.deploy.ImageArchiveStep;
import dev.cabinet.deploy.ImageDockerfile;

/**
 * Start time and idle memory of each role of the packaged application, several runs each, as the image runs it: the
 * options Dockerfile.jvm's entrypoint composes, its AppCDS archive and the pod's 512 MiB. One instance at a time
 * against a broker and a dynalite of its own, so no other instance's start or work shares the cores with the one
 * measured. The role {@code baseline} is the hand-written application of benchmark/baseline (Quarkus REST, the same
 * DynamoDB client and a Kafka producer), run the same way with an archive made by the same step: what any service
 * built on these libraries costs on this machine. Not a test: it asserts nothing about time and writes
 * {@code target/benchmark/footprint.md}. Run with {@code benchmark/footprint} (docs/benchmarks-method.md, "Footprint").
 */
class FootprintBenchmark {

    private static final int RUNS = Integer.getInteger("cabinet.footprint.runs", 5);
    private static final Duration IDLE = Duration.ofSeconds(Long.getLong("cabinet.footprint.idle-seconds", 10));
    private static final List<String> ROLES = List.of(System.getProperty("cabinet.footprint.roles", "api,projector,baseline")
            .split(","));
    /**
     * Option sets to compare in one run, separated by '|': each is added to the image's options (an empty one: the
     * image's alone), e.g. {@code -Dcabinet.footprint.variants='|-XX:TieredStopAtLevel=1'}; {@code {name}} in them
     * is replaced by the instance's name (e.g. a JFR file of its own per instance).
     */
    private static final List<String> VARIANTS = List.of(System.getProperty("cabinet.footprint.variants", "")
            .split("\\|", -1));
    private static final Path OUT = Path.of("target", "benchmark").toAbsolutePath();
    private static final Path CLASS_DATA = OUT.resolve("footprint-app-cds.jsa");
    /** The hand-written baseline's own class-data archive. */
    private static final Path BASELINE_CLASS_DATA = OUT.resolve("footprint-baseline-app-cds.jsa");
    private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");

    /** One start of one role: seconds to ready, what Quarkus reports, memory at rest before and after a GC. */
    record Sample(double ready, double cpu, double quarkus, double rss, double rssAfterGc, long classes,
            long sharedClasses, long threads) {
    }

    @Test
    void measureStartAndIdleMemoryOfEachRole() throws Exception {
        new ImageArchiveStep(CLASS_DATA).archiveOrFail(OUT.resolve("footprint-app-cds.log"));
        if (ROLES.contains("baseline")) {
            new ImageArchiveStep(BASELINE_CLASS_DATA, BaselineApp.DIR)
                    .archiveOrFail(OUT.resolve("footprint-baseline-app-cds.log"));
        }
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        try (ProcessHarness harness = ProcessHarness.asDeployed("footprint")) {
            for (int run = 1; run <= RUNS; run++) {
                for (int v = 0; v < VARIANTS.size(); v++) {
                    for (String role : ROLES) {
                        String name = role + "-v" + v + "-r" + run;
                        String variant = VARIANTS.get(v).replace("{name}", name);
                        AppProcess app = role.equals("baseline")
                                ? BaselineApp.process(harness, name, jvm(variant, BASELINE_CLASS_DATA), Map.of())
                                : harness.app(name, Map.of("cabinet.role", role), jvm(variant, CLASS_DATA));
                        Sample sample = measure(app);
                        samples.computeIfAbsent(role + "|" + VARIANTS.get(v), key -> new ArrayList<>()).add(sample);
                        System.out.printf("footprint %s [%s] run %d: %s%n", role, VARIANTS.get(v), run, sample);
                        app.close();
                    }
                }
            }
        }
        write(samples, "load average (1, 5, 15 min) before: " + loadBefore + "; after: "
                + Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /** The pod's JVM (as CabinetBenchmark's instances, without the JFR recording) plus the variant's options. */
    private static List<String> jvm(String variant, Path classData) {
        List<String> options = new ArrayList<>(List.of("-XX:MaxRAM=512m"));
        options.addAll(ImageDockerfile.read("Dockerfile.jvm").entrypointJvmOptions(Map.of(),
                Map.of("/deployments/app-cds.jsa", classData)));
        if (!variant.isBlank()) {
            options.addAll(Arrays.asList(variant.trim().split("\\s+")));
        }
        return options;
    }

    private static Sample measure(AppProcess app) throws Exception {
        long started = System.nanoTime();
        app.start(); // polls /q/health/ready every 50 ms
        double ready = (System.nanoTime() - started) / 1e9;
        double cpu = Cpu.seconds(app.pid());
        Matcher reported = Pattern.compile("started in ([0-9.]+)s").matcher(Files.readString(app.currentLog()));
        double quarkus = reported.find() ? Double.parseDouble(reported.group(1)) : Double.NaN;
        Thread.sleep(IDLE.toMillis()); // at rest: what the process holds when nothing is asked of it
        long pid = app.pid();
        double rss = status(pid, "VmRSS") / 1024.0;
        long threads = status(pid, "Threads");
        String counters = jcmd(pid, "PerfCounter.print");
        long classes = counter(counters, "java.cls.loadedClasses") - counter(counters, "java.cls.unloadedClasses");
        long shared = counter(counters, "java.cls.sharedLoadedClasses")
                - counter(counters, "java.cls.sharedUnloadedClasses");
        Path details = app.currentLog().resolveSibling(app.currentLog().getFileName() + ".jcmd.txt");
        StringBuilder text = new StringBuilder();
        if (String.join(" ", ProcessHandle.of(pid).flatMap(h -> h.info().arguments()).map(Arrays::asList)
                .orElse(List.of())).contains("NativeMemoryTracking")) {
            text.append(jcmd(pid, "VM.native_memory", "summary"));
        }
        jcmd(pid, "GC.run");
        Thread.sleep(1000);
        double rssAfterGc = status(pid, "VmRSS") / 1024.0;
        text.append(jcmd(pid, "GC.heap_info"));
        Files.writeString(details, text);
        return new Sample(ready, cpu, quarkus, rss, rssAfterGc, classes, shared, threads);
    }

    private static long status(long pid, String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no " + field + " for " + pid);
    }

    private static String jcmd(long pid, String... command) throws Exception {
        List<String> arguments = new ArrayList<>(List.of(JCMD.toString(), Long.toString(pid)));
        arguments.addAll(List.of(command));
        Process process = new ProcessBuilder(arguments).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        process.waitFor(30, TimeUnit.SECONDS);
        return output;
    }

    private static long counter(String counters, String name) {
        Matcher value = Pattern.compile("(?m)^" + Pattern.quote(name) + "=(\\d+)").matcher(counters);
        return value.find() ? Long.parseLong(value.group(1)) : -1;
    }

    private static void write(Map<String, List<Sample>> samples, String load) throws Exception {
        StringBuilder table = new StringBuilder(String.format("%d runs per row, %d s at rest before the RSS; medians"
                + " (min–max)%n%n| role | extra JVM options | ready (s) | CPU until ready (s) | Quarkus 'started in' (s) | idle RSS (MB) |"
                + " RSS after a GC (MB) | classes (from CDS) | threads |%n|---|---|---|---|---|---|---|---|---|%n",
                RUNS, IDLE.toSeconds()));
        samples.forEach((key, list) -> {
            String[] parts = key.split("\\|", -1);
            table.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %.0f (%.0f) | %.0f |%n", parts[0],
                    parts[1].isBlank() ? "(the image's)" : "`" + parts[1] + "`",
                    spread(list.stream().mapToDouble(Sample::ready).toArray(), "%.2f"),
                    spread(list.stream().mapToDouble(Sample::cpu).toArray(), "%.2f"),
                    spread(list.stream().mapToDouble(Sample::quarkus).toArray(), "%.3f"),
                    spread(list.stream().mapToDouble(Sample::rss).toArray(), "%.0f"),
                    spread(list.stream().mapToDouble(Sample::rssAfterGc).toArray(), "%.0f"),
                    median(list.stream().mapToDouble(Sample::classes).toArray()),
                    median(list.stream().mapToDouble(Sample::sharedClasses).toArray()),
                    median(list.stream().mapToDouble(Sample::threads).toArray())));
        });
        table.append(String.format("%n%s%n", load));
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve("footprint.md"), table);
        System.out.println(table);
    }

    private static String spread(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(format + " (" + format + "–" + format + ")", median(values), sorted[0],
                sorted[sorted.length - 1]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
