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
 * Start time and idle memory of each role of the packaged application, several runs each, as an image runs it: the
 * options its entrypoint composes, its class data (Dockerfile.jvm's AppCDS archive, Dockerfile.jvm25's AOT cache, each
 * made by the image's own step on a JVM of its Java version) and the pod's 512 MiB. One instance at a time
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
    /**
     * The images to run each role as, separated by ',': {@code Dockerfile.jvm} (Java 21's image, on this JVM) and
     * {@code Dockerfile.jvm25} (on a JDK 25, {@code -Dcabinet.jdk25.home}); {@code Dockerfile.jvm25+start} is the Java
     * 25 image with a cache trained, per role, by a real start of that role to ready and {@value #TRAINING_REST_SECONDS}
     * s at rest (against the benchmark's broker and store, which an image build cannot reach): what a cache could do
     * beyond the one the image's step makes.
     */
    private static final List<String> IMAGES = List.of(System.getProperty("cabinet.footprint.images",
            "Dockerfile.jvm").split(","));
    private static final Path OUT = Path.of("target", "benchmark").toAbsolutePath();
    private static final String TRAINED_BY_START = "+start";
    private static final int TRAINING_REST_SECONDS = 5;

    /** One start of one role: seconds to ready, what Quarkus reports, memory at rest before and after a GC. */
    record Sample(double ready, double cpu, double quarkus, double rss, double rssAfterGc, long classes,
            long sharedClasses, long threads) {
    }

    @Test
    void measureStartAndIdleMemoryOfEachRole() throws Exception {
        Map<String, Path> classData = new LinkedHashMap<>();
        for (String image : IMAGES.stream().filter(image -> !image.endsWith(TRAINED_BY_START)).toList()) {
            Path java = ImageDockerfile.javaHome(image);
            Path app = archived(image, "app", new ImageArchiveStep(classDataFile(image, "app"),
                    Path.of("target", "quarkus-app"), image, java));
            ROLES.stream().filter(role -> !role.equals("baseline")).forEach(role -> classData.put(image + "|" + role,
                    app));
            if (ROLES.contains("baseline")) {
                classData.put(image + "|baseline", archived(image, "baseline",
                        new ImageArchiveStep(classDataFile(image, "baseline"), BaselineApp.DIR, image, java)));
            }
        }
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        try (ProcessHarness harness = ProcessHarness.asDeployed("footprint")) {
            for (String image : IMAGES.stream().filter(image -> image.endsWith(TRAINED_BY_START)).toList()) {
                for (String role : ROLES) {
                    classData.put(image + "|" + role, trainedByStart(harness, image, role));
                }
            }
            for (int run = 1; run <= RUNS; run++) {
                for (String image : IMAGES) {
                    Path java = ImageDockerfile.javaHome(image);
                    for (int v = 0; v < VARIANTS.size(); v++) {
                        for (String role : ROLES) {
                            String name = role + "-" + shortName(image) + "-v" + v + "-r" + run;
                            String variant = VARIANTS.get(v).replace("{name}", name);
                            List<String> jvm = jvm(image, variant, classData.get(image + "|" + role));
                            AppProcess app = process(harness, name, role, jvm, java);
                            Sample sample = measure(app, java);
                            samples.computeIfAbsent(image + "|" + role + "|" + VARIANTS.get(v),
                                    key -> new ArrayList<>()).add(sample);
                            System.out.printf("footprint %s %s [%s] run %d: %s%n", image, role, VARIANTS.get(v), run,
                                    sample);
                            app.close();
                        }
                    }
                }
            }
        }
        write(samples, "load average (1, 5, 15 min) before: " + loadBefore + "; after: "
                + Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /**
     * A cache trained by a start of the role: the image's options without its cache, with {@code -XX:AOTCacheOutput};
     * started to ready, left at rest, stopped as a pod is (SIGTERM), when the JVM writes the cache.
     */
    private static Path trainedByStart(ProcessHarness harness, String image, String role) throws Exception {
        Path cache = OUT.resolve("footprint-" + shortName(image) + "-" + role + ".aot");
        Files.deleteIfExists(cache);
        List<String> jvm = new ArrayList<>(jvm(image, "", cache).stream()
                .filter(option -> !option.startsWith("-XX:AOTCache=")).toList());
        jvm.add("-XX:AOTCacheOutput=" + cache);
        Path java = ImageDockerfile.javaHome(image);
        String name = role + "-" + shortName(image) + "-training";
        AppProcess app = process(harness, name, role, jvm, java);
        app.start();
        Thread.sleep(TRAINING_REST_SECONDS * 1000L);
        app.close();
        if (!Files.isRegularFile(cache)) {
            throw new IllegalStateException("the training start of " + role + " wrote no cache; see "
                    + app.currentLog());
        }
        return cache;
    }

    /** An instance of the role (Cabinet's {@code cabinet.role}, or the hand-written baseline), not started. */
    private static AppProcess process(ProcessHarness harness, String name, String role, List<String> jvm, Path java)
            throws Exception {
        return role.equals("baseline") ? BaselineApp.process(harness, name, jvm, Map.of(), java)
                : harness.app(name, Map.of("cabinet.role", role), jvm, java);
    }

    private static String shortName(String image) {
        return image.replace("Dockerfile.", "").replace(TRAINED_BY_START, "-start");
    }

    /** Where an image's class data for an application goes: an AppCDS archive or an AOT cache. */
    private static Path classDataFile(String image, String app) {
        return OUT.resolve("footprint-" + shortName(image) + "-" + app
                + (image.startsWith("Dockerfile.jvm25") ? ".aot" : "-app-cds.jsa"));
    }

    private static Path archived(String image, String app, ImageArchiveStep step) throws Exception {
        step.archiveOrFail(OUT.resolve("footprint-" + shortName(image) + "-" + app + "-class-data.log"));
        return step.archive();
    }

    /** The pod's JVM (as CabinetBenchmark's instances, without the JFR recording) plus the variant's options. */
    private static List<String> jvm(String image, String variant, Path classData) {
        List<String> options = new ArrayList<>(List.of("-XX:MaxRAM=512m"));
        options.addAll(ImageDockerfile.read(image.replace(TRAINED_BY_START, "")).entrypointJvmOptions(Map.of(),
                Map.of("/deployments/app-cds.jsa", classData, "/deployments/app.aot", classData)));
        if (!variant.isBlank()) {
            options.addAll(Arrays.asList(variant.trim().split("\\s+")));
        }
        return options;
    }

    private static Sample measure(AppProcess app, Path java) throws Exception {
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
        String counters = jcmd(java, pid, "PerfCounter.print");
        long classes = counter(counters, "java.cls.loadedClasses") - counter(counters, "java.cls.unloadedClasses");
        long shared = counter(counters, "java.cls.sharedLoadedClasses")
                - counter(counters, "java.cls.sharedUnloadedClasses");
        Path details = app.currentLog().resolveSibling(app.currentLog().getFileName() + ".jcmd.txt");
        StringBuilder text = new StringBuilder();
        if (String.join(" ", ProcessHandle.of(pid).flatMap(h -> h.info().arguments()).map(Arrays::asList)
                .orElse(List.of())).contains("NativeMemoryTracking")) {
            text.append(jcmd(java, pid, "VM.native_memory", "summary"));
        }
        jcmd(java, pid, "GC.run");
        Thread.sleep(1000);
        double rssAfterGc = status(pid, "VmRSS") / 1024.0;
        text.append(jcmd(java, pid, "GC.heap_info"));
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

    /** jcmd of the JDK that runs the process (another JDK's jcmd cannot attach to it). */
    private static String jcmd(Path java, long pid, String... command) throws Exception {
        List<String> arguments = new ArrayList<>(List.of(java.resolve("bin").resolve("jcmd").toString(),
                Long.toString(pid)));
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
                + " (min–max)%n%n| image | role | extra JVM options | ready (s) | CPU until ready (s) | Quarkus 'started in' (s) |"
                + " idle RSS (MB) | RSS after a GC (MB) | classes (from CDS or the AOT cache) | threads |%n"
                + "|---|---|---|---|---|---|---|---|---|---|%n",
                RUNS, IDLE.toSeconds()));
        samples.forEach((key, list) -> {
            String[] parts = key.split("\\|", -1);
            table.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %s | %.0f (%.0f) | %.0f |%n", parts[0],
                    parts[1], parts[2].isBlank() ? "(the image's)" : "`" + parts[2] + "`",
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

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
