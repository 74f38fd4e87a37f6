package dev.cabinet.benchmark;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.CrashClient;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.deploy.ImageArchiveStep;
import dev.cabinet.deploy.ImageDockerfile;
import dev.cabinet.devservices.launcher.KafkaBroker;
import dev.cabinet.shared.Ids;

/**
 * Every path of Cabinet measured next to its raw limit on this machine, in one run: the packaged application (an API
 * instance and a projector instance, as deployed) against a broker and a dynalite started like dev mode's, and the
 * same broker and store driven directly through the same clients at the same concurrency. Not a test: it asserts
 * nothing about time; it writes the figures to {@code service/target/benchmark/results.md}. Run with
 * {@code benchmark/run} (see docs/benchmarks.md).
 */
class CabinetBenchmark {

    /**
     * CI's short mode (benchmark/run --short): every phase once, briefly, at low concurrency and a small scale step, so
     * that the benchmark cannot break unseen; its figures mean nothing, and it fails only when a phase completed no
     * request at all (a broken path), never on time.
     */
    private static final boolean SHORT = Boolean.getBoolean("cabinet.bench.short");
    private static final Duration PHASE = Duration.ofSeconds(Long.getLong("cabinet.bench.seconds", SHORT ? 1 : 15));
    private static final int CONCURRENCY = Integer.getInteger("cabinet.bench.concurrency", SHORT ? 2 : 16);
    /** The projector's concurrency (cabinet.projection.concurrency), which the raw replay of its calls matches. */
    private static final int PROJECTION_CONCURRENCY = 32;
    private static final long SMALL_TABLE = 10_000;
    private static final long LARGE_TABLE = Long.getLong("cabinet.bench.scale-items", SHORT ? 20_000 : 1_000_000);
    private static final int USERS = 16;
    private static final String TABLE = "cabinet";
    private static final String BODY = RawStore.BODY;
    /** The pod's memory limit, as the JVM in the container sees it. */
    private static final String MEMORY_LIMIT = "-XX:MaxRAM=512m";
    /** The image's AppCDS archive, made as Dockerfile.jvm makes it, by the JVM the instances run on. */
    private static final Path CLASS_DATA = Path.of("target", "benchmark", "app-cds.jsa").toAbsolutePath();
    /** The projector is frozen (SIGSTOP) while a backlog builds up: a long session keeps its partitions meanwhile. */
    private static final String LONG_SESSION = "60000";

    /**
     * The phases to run (cabinet.bench.phases, comma-separated; all by default): footprint, reads, scale, projection,
     * freshness, rebuild, commands, baselines. Commands are also measured with projection or freshness, which build on
     * them; start times and the HTTP floor always.
     */
    private static final Set<String> PHASES = Set.of(System.getProperty("cabinet.bench.phases",
            "footprint,reads,scale,projection,freshness,rebuild,commands,baselines").split(","));
    /** A JFR recording on every instance (cabinet.bench.jfr=false: none), kept only where a phase stalled. */
    private static final boolean JFR = Boolean.parseBoolean(System.getProperty("cabinet.bench.jfr", "true"));
    /** At most this many recordings kept per run (each instance's last minutes, a few MB each). */
    private static final int MAX_STALL_DUMPS = 12;

    private final Report report = new Report();
    /** dynalite's request recorder: the projection's and the rebuild's raw replays make the calls it recorded. */
    private final StoreRecorder recorder = StoreRecorder.install(Path.of("target", "benchmark-recorder").toAbsolutePath());
    private final Map<String, List<String>> postsByUser = new ConcurrentHashMap<>();
    /** The instances running now, by name: where a stall's recordings are taken from. */
    private final Map<String, AppProcess> running = new ConcurrentHashMap<>();
    private int stallDumps;
    /** Whether the baseline's topics and the naive projector's table exist yet. */
    private boolean baselineTopicsAndTable;
    private int freshnessRuns;
    /** Set while the store answers with the latency model: how the freshness figures name it. */
    private String storeLatency;
    /** The last freshness phase's rate and figures, which the hand-written path is measured against. */
    private FreshnessFigures lastFreshness;

    /** One freshness phase: its rate (commands/s) and, from 202 until visible, p50, p99 and max in ms. */
    private record FreshnessFigures(double rate, double p50, double p99, double max) {
    }
    /** Whether closed-loop GET phases run on wrk: set by the HTTP floor, where both generators are measured. */
    private boolean useWrk;
    /** Events per second of Cabinet's projector draining a backlog and of the rebuild, for the naive projector. */
    private double projectionRate = Double.NaN;
    private double rebuildRate = Double.NaN;
    /** CPU seconds per event of the projector draining a backlog and of the rebuild, for the naive projector. */
    private double projectionCpu = Double.NaN;
    private double rebuildCpu = Double.NaN;

    @Test
    void measureEveryPathAgainstItsRawLimit() throws Exception {
        report.note(machine());
        Load.onResult(result -> {
            report.phase(result);
            keepRecordingsOfStall(result);
        });
        archiveClassData();
        try (ProcessHarness harness = ProcessHarness.asDeployed("benchmark", recorder.settings())) {
            AppProcess api = harness.app("api", Map.of("cabinet.role", "api"), jvm("api"));
            AppProcess projector = harness.app("projector", Map.of("cabinet.role", "projector",
                    "mp.messaging.incoming.events.session.timeout.ms", LONG_SESSION), jvm("projector"));
            footprint(api, "API instance (cabinet.role=api)");
            running.put("api", api);
            footprint(projector, "projector instance (cabinet.role=projector)");
            running.put("projector", projector);
            if (PHASES.contains("footprint")) {
                idleMemory(api, projector);
            }
            CrashClient client = harness.client(api);
            try (Http http = new Http(api::uri); RawStore raw = new RawStore(harness.dynalite.endpoint())) {
                for (int u = 0; u < USERS; u++) {
                    client.applied("PUT", "/users/" + user(u), user(u), Map.of("name", "User " + u,
                            "email", user(u) + "@example.com"));
                }
                floor(api, http);
                if (PHASES.contains("scale")) {
                    scaleSmall(http, client, raw);
                }
                if (!PHASES.contains("projection") && PHASES.contains("freshness")) {
                    // freshness alone, at a given rate (cabinet.bench.freshness-rate), to try a change quickly
                    warmUp(http, client, projector);
                    freshnessAtRates(http, client, projector, raw, System.getProperty("cabinet.bench.freshness-rate"));
                    freshnessWithStoreLatency(harness, http, client, projector, raw, lastFreshness.rate());
                } else if (PHASES.contains("projection")) {
                    warmUp(http, client, projector);
                    Load.Result live = commandsLive(http, client);
                    caughtUp(projector);
                    Map<String, Object> projection = projection(harness, http, client, projector, raw, live);
                    caughtUp(projector);
                    memoryAfterLoad(api, projector);
                    if (PHASES.contains("freshness")) {
                        // half the sustainable rate, or the rates given (to compare settings at one rate across runs)
                        String given = System.getProperty("cabinet.bench.freshness-rate");
                        if (given == null) {
                            freshnessWarmedUp(http, client, projector, raw, (double) projection.get("sustainable") / 2);
                        } else {
                            freshnessAtRates(http, client, projector, raw, given);
                        }
                        freshnessWithStoreLatency(harness, http, client, projector, raw, lastFreshness.rate());
                    }
                }
                if (PHASES.contains("rebuild")) {
                    rebuild(harness, raw);
                }
                if (PHASES.contains("reads")) {
                    reads(api, http, client, raw);
                }
                if (PHASES.contains("baselines")) {
                    baselines(harness, api, projector, http, client, raw);
                }
                if (PHASES.contains("scale")) {
                    scaleLarge(http, client, raw);
                }
                if (PHASES.contains("commands")) {
                    // last: the posts it creates (a hundred thousand in a full run) are left to the projector
                    commandPath(harness, projector, api, http, client, raw);
                }
            }
        }
        report.write(Path.of("target", "benchmark", "results.md"));
        if (SHORT) {
            List<String> broken = report.phases().stream().filter(phase -> phase.completed() == 0)
                    .map(Load.Result::toString).toList();
            if (!broken.isEmpty()) {
                throw new AssertionError("phases that completed no request (a broken path, not a slow one):\n"
                        + String.join("\n", broken));
            }
        }
    }

    /** Archives the classes the application loads at startup with the step Dockerfile.jvm runs (ImageArchiveStep). */
    private static void archiveClassData() throws Exception {
        new ImageArchiveStep(CLASS_DATA).archiveOrFail(CLASS_DATA.resolveSibling("app-cds.log"));
    }

    /**
     * The pod's JVM: the memory limit, then the options the image's entrypoint composes from Dockerfile.jvm (RunJava:
     * G1 among them, named there because in a 512 MiB container the JVM would pick the serial collector;
     * -Dcabinet.bench.gc=SerialGC sets GC_CONTAINER_OPTIONS to measure that, as the image would be told), with any
     * options to try (cabinet.bench.jvm-options, space-separated), plus a JFR recording: the default settings, kept
     * only where a phase stalls ({@link #keepRecordingsOfStall}), or the profile settings written to
     * target/benchmark/<name>.jfr at exit with -Dcabinet.bench.profile=true.
     */
    private static List<String> jvm(String name) {
        Map<String, String> env = System.getProperty("cabinet.bench.gc") == null ? Map.of()
                : Map.of("GC_CONTAINER_OPTIONS", "-XX:+Use" + System.getProperty("cabinet.bench.gc"));
        List<String> options = new ArrayList<>(List.of(MEMORY_LIMIT));
        options.addAll(ImageDockerfile.read("Dockerfile.jvm").entrypointJvmOptions(env,
                Map.of("/deployments/app-cds.jsa", CLASS_DATA)));
        String extra = System.getProperty("cabinet.bench.jvm-options", "").trim();
        if (!extra.isEmpty()) {
            options.addAll(List.of(extra.split("\\s+")));
        }
        if (Boolean.getBoolean("cabinet.bench.profile")) {
            options.add("-XX:StartFlightRecording=name=bench,settings=profile,filename="
                    + Path.of("target", "benchmark", name + ".jfr").toAbsolutePath());
        } else if (JFR) {
            // in memory and the JVM's own repository only: written out (jcmd JFR.dump) when a phase stalls
            options.add("-XX:StartFlightRecording=name=bench,settings=default,maxage=5m");
        }
        return options;
    }

    private static String user(int u) {
        return "bench-u" + u;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Footprint: start to first answered request, resident memory at rest
    // ---------------------------------------------------------------------------------------------------------------

    private void footprint(AppProcess app, String what) throws Exception {
        long started = System.nanoTime();
        app.start();
        double seconds = (System.nanoTime() - started) / 1e9;
        Matcher quarkus = Pattern.compile("started in ([0-9.]+)s").matcher(Files.readString(app.currentLog()));
        String reported = quarkus.find() ? quarkus.group(1) + " s" : "not logged";
        report.bound("footprint", "start of " + what + " until /q/health/ready answers 200", seconds, Double.NaN, "s",
                "≤ 1.5 s (Quarkus reports " + reported + ")", seconds <= 1.5);
    }

    private void idleMemory(AppProcess... apps) throws Exception {
        Thread.sleep(IDLE.toMillis()); // at rest: what the process holds when nothing is asked of it
        for (AppProcess app : apps) {
            double megabytes = residentKilobytes(app.pid()) / 1024.0;
            if (System.getProperty("cabinet.bench.jvm-options", "").contains("NativeMemoryTracking")) {
                // where the memory is, by the JVM's own account (heap, classes, code, threads, ...)
                new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(app.pid()), "VM.native_memory", "summary").redirectErrorStream(true)
                        .redirectOutput(app.currentLog().resolveSibling(app.currentLog().getFileName() + ".nmt.txt")
                                .toFile())
                        .start().waitFor(30, TimeUnit.SECONDS);
            }
            report.bound("footprint", "idle RSS of " + app.currentLog().getFileName().toString().replaceAll("-\\d+\\.log", "")
                    + " instance, " + IDLE.toSeconds() + " s after start" + (JFR ? " (JFR recording)" : ""), megabytes,
                    Double.NaN, "MB", "≤ 180 MB", megabytes <= 180);
        }
    }

    /**
     * What each instance holds once the command and projection phases have run (the memory a pod's limit must cover
     * under load, docs/deploy.md "Memory"): resident memory, and with -XX:NativeMemoryTracking=summary in
     * cabinet.bench.jvm-options the JVM's own account per area (heap, metaspace, code cache, threads, direct buffers
     * under "Other"), committed, in MB, and the heap in use after a full GC (the live set).
     */
    private void memoryAfterLoad(AppProcess... apps) throws Exception {
        for (AppProcess app : apps) {
            String name = app.currentLog().getFileName().toString().replaceAll("-\\d+\\.log", "");
            double megabytes = residentKilobytes(app.pid()) / 1024.0;
            report.bound("footprint", "RSS of " + name + " instance after the command and projection phases",
                    megabytes, Double.NaN, "MB", "within its pod's limit (deploy/k8s)", true);
            if (System.getProperty("cabinet.bench.jvm-options", "").contains("NativeMemoryTracking")) {
                String nmt = jcmd(app.pid(), "VM.native_memory", "summary", "scale=MB");
                Files.writeString(app.currentLog().resolveSibling(app.currentLog().getFileName() + ".nmt-load.txt"), nmt);
                Map<String, Long> committed = new LinkedHashMap<>();
                Matcher area = Pattern.compile("(?m)^-\\s+(.+?) \\(reserved=\\d+MB, committed=(\\d+)MB\\)").matcher(nmt);
                while (area.find()) {
                    committed.put(area.group(1).trim(), Long.parseLong(area.group(2)));
                }
                jcmd(app.pid(), "GC.run");
                Matcher used = Pattern.compile("used (\\d+)K").matcher(jcmd(app.pid(), "GC.heap_info"));
                report.note(name + " after load, committed MB by area (NMT): " + committed
                        + (used.find() ? "; heap in use after a full GC: " + Long.parseLong(used.group(1)) / 1024
                                + " MB" : ""));
            }
        }
    }

    static String jcmd(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        return output;
    }

    private static final Duration IDLE = Duration.ofSeconds(SHORT ? 2 : 10);

    /** A warm-up's length: as given, or one phase in the short mode. */
    private static Duration warm(int seconds) {
        return SHORT ? PHASE : Duration.ofSeconds(seconds);
    }

    private static long residentKilobytes(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }

    /**
     * Both JVMs compile the hot paths before anything is measured: commands, the projection of them, reads. The
     * projector catches up on the warm-up's posts before a user's registration is waited for (Prefer: wait gives up
     * after 30 s, and a quick API can leave more than 30 s of posts behind it), and again after it.
     */
    private void warmUp(Http http, CrashClient client, AppProcess projector) throws Exception {
        Load.closedLoop("warm-up: POST /posts", CONCURRENCY, warm(20),
                sequence -> createPost(http, client, user((int) (sequence % USERS)), sequence));
        Load.closedLoop("warm-up: GET /users/{id}/posts", CONCURRENCY, warm(10),
                sequence -> http.get("/users/" + user((int) (sequence % USERS)) + "/posts?limit=20",
                        client.token(user((int) (sequence % USERS))), 200));
        caughtUp(projector);
        client.applied("PUT", "/users/" + user(0), user(0), Map.of("name", "User 0", "email", user(0) + "@example.com"));
        caughtUp(projector);
    }

    /** Waits until the projector has applied everything, so that no backlog of an earlier phase skews the next. */
    private static void caughtUp(AppProcess projector) throws Exception {
        try (Http meters = new Http(projector::uri)) {
            int quietSamples = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (quietSamples < 3 && System.nanoTime() < deadline) {
                quietSamples = quiet(new Meters(meters.text("/q/metrics"))) ? quietSamples + 1 : 0;
                Thread.sleep(100);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Commands: accepted per second vs a raw producer with the same settings and record size
    // ---------------------------------------------------------------------------------------------------------------

    /** Commands while the projector projects them: the whole system's rate. */
    private Load.Result commandsLive(Http http, CrashClient client) {
        return Load.closedLoop("commands while projecting: POST /posts", CONCURRENCY, PHASE,
                sequence -> createPost(http, client, user((int) (sequence % USERS)), sequence));
    }

    /** The command path alone (the projector frozen, as the raw producer has nothing downstream) vs a raw producer. */
    private void commandsAlone(Load.Result cabinet, Load.Result live, KafkaBroker broker) throws Exception {
        KafkaBroker.createTopics(broker.bootstrapServers(), List.of("bench.raw"), 6);
        Load.Result raw;
        try (KafkaProducer<String, byte[]> producer = rawProducer(broker.bootstrapServers())) {
            raw = Load.closedLoop("commands: raw producer", CONCURRENCY, PHASE, sequence -> {
                CompletableFuture<Object> sent = new CompletableFuture<>();
                String postId = Ids.newId();
                producer.send(new ProducerRecord<>("bench.raw", null, postId, postCreated(postId, sequence),
                        cloudEventHeaders(postId)), (metadata, failure) -> {
                            if (failure == null) {
                                sent.complete(metadata);
                            } else {
                                sent.completeExceptionally(failure);
                            }
                        });
                return sent;
            });
        }
        report.ratio("commands", "POST /posts accepted per second at " + CONCURRENCY + " concurrent callers, the "
                + "projector frozen", cabinet.perSecond(), raw.perSecond(), "/s", 0.5);
        report.bound("commands", String.format("latency p50 (p99 %.1f ms vs raw %.1f ms)", cabinet.p99Millis(),
                raw.p99Millis()), cabinet.p50Millis(), raw.p50Millis(), "ms", "—", true);
        report.bound("commands", String.format("POST /posts per second while the projector projects them (p50 %.1f ms, "
                + "p99 %.1f ms)", live.p50Millis(), live.p99Millis()), live.perSecond(), Double.NaN, "/s", "reference",
                true);
    }

    private CompletableFuture<JsonNode> createPost(Http http, CrashClient client, String author, long sequence) {
        return http.send("POST", "/posts", client.token(author), Map.of("title", "Bench post " + sequence, "body", BODY),
                202).thenApply(answer -> {
                    postsByUser.computeIfAbsent(author, a -> new java.util.concurrent.CopyOnWriteArrayList<>())
                            .add(answer.get("id").asText());
                    return answer;
                });
    }

    private static KafkaProducer<String, byte[]> rawProducer(String bootstrap) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    /** A record the size of Cabinet's PostCreated: the same fields, body and CloudEvents headers. */
    private static byte[] postCreated(String postId, long sequence) {
        return ("{\"postId\":\"" + postId + "\",\"authorId\":\"bench-u" + (sequence % USERS) + "\",\"title\":\"Bench post "
                + sequence + "\",\"body\":\"" + BODY + "\",\"createdAt\":\"2026-01-31T12:00:00.000Z\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static List<Header> cloudEventHeaders(String postId) {
        List<Header> headers = new ArrayList<>();
        Map.of("ce_specversion", "1.0", "ce_id", Ids.newId(), "ce_source", "/cabinet", "ce_type",
                "cabinet.post.created.v1", "ce_time", "2026-01-31T12:00:00.000Z", "ce_subject", postId, "ce_actor",
                "bench-u0", "content-type", "application/json")
                .forEach((name, value) -> headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8))));
        return headers;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Freshness: from a command's 202 until a query shows it, at half the sustainable command rate
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * How often the freshness watcher looks (cabinet.bench.watch-every-ms): every few milliseconds, so its own pause
     * adds at most that (half of it on average) to each figure. It can look that often because each look is cheap: one
     * Query of only the author's summaries created since the oldest post not yet seen (their sort keys begin with the
     * creation time), a handful of keys where a listing of the newest 50 read 50 whole items.
     */
    private static final Duration WATCH_EVERY = Duration.ofMillis(Long.getLong("cabinet.bench.watch-every-ms", 10));
    /**
     * The most keys one look reads, oldest first: a projector that falls behind would otherwise make every look read
     * all it has not shown yet and the store it is timing slow down further. Posts beyond the first 50 from the
     * oldest unseen are seen when the ones before them are: figures above the time 50 posts take to arrive (280 ms at
     * 176/s) are bounds from above.
     */
    private static final int LOOK_LIMIT = 50;

    /** The projector's histogram of how old events were when applied (ProjectionMetrics). */
    private static final String EVENT_AGE = "cabinet_projection_event_age_seconds";
    /** The same when the engine received the event's batch, and when it started applying the event. */
    private static final String EVENT_RECEIVED_AGE = "cabinet_projection_event_received_age_seconds";
    private static final String EVENT_STARTED_AGE = "cabinet_projection_event_started_age_seconds";

    /** The dynalite process serving the benchmark's store (by its port on the command line), or -1. */
    private static long dynalitePid(RawStore raw) {
        String port = "--port " + java.net.URI.create(raw.endpoint).getPort();
        return ProcessHandle.allProcesses().filter(process -> process.info().commandLine()
                .filter(line -> line.contains("dynalite") && line.contains(port)).isPresent())
                .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }

    private static Meters projectorMeters(AppProcess projector) {
        try (Http meters = new Http(projector::uri)) {
            return new Meters(meters.text("/q/metrics"));
        }
    }

    /**
     * The freshness phase at each rate given (comma-separated), each repeated (cabinet.bench.freshness-repeats) on the
     * same instances, for a median on a shared machine.
     */
    private void freshnessAtRates(Http http, CrashClient client, AppProcess projector, RawStore raw, String rates)
            throws Exception {
        for (String rate : rates.split(",")) {
            for (int run = 0; run < Integer.getInteger("cabinet.bench.freshness-repeats", 1); run++) {
                freshnessWarmedUp(http, client, projector, raw, Double.parseDouble(rate.trim()));
            }
        }
    }

    /**
     * How many unmeasured freshness phases run at a rate before the measured one (cabinet.bench.freshness-warm-ups):
     * the phases before ran the cores full, where each JVM's C2 compiler fell behind (HotSpot compiled hundreds of
     * methods at C1's tier 2 for want of it), and when the load falls to a freshness rate it catches up, taking 15-30%
     * of a core in the projector, the API and this JVM each. Measured at once, a freshness phase measures JVMs that are
     * still compiling, which a service that has run for a while is not; after three phases of 15 s the API's share
     * was 10-20% where the first phase found 18-32% (docs/benchmarks-history.md, "The JITs still compiling"). Each warm-up is
     * reported as notes.
     */
    private static final int FRESHNESS_WARM_UPS = SHORT ? 0 : Integer.getInteger("cabinet.bench.freshness-warm-ups", 3);

    private void freshnessWarmedUp(Http http, CrashClient client, AppProcess projector, RawStore raw, double rate)
            throws Exception {
        for (int warmUp = 1; warmUp <= FRESHNESS_WARM_UPS; warmUp++) {
            caughtUp(projector);
            freshness(http, client, projector, raw, rate,
                    String.format("freshness warm-up %d of %d", warmUp, FRESHNESS_WARM_UPS));
        }
        caughtUp(projector);
        freshness(http, client, projector, raw, rate, null);
    }

    /**
     * The store-latency model for the projection phase and the naive projector's replay
     * (cabinet.bench.projection-store-latency, median and p99 in ms as for cabinet.bench.store-latency; empty, the
     * default, leaves both at the store's own speed): the two drain a backlog with every call delayed alike, so their
     * ratio counts each event's rounds and calls as production pays them (issue 37).
     */
    private static final String PROJECTION_LATENCY = System.getProperty("cabinet.bench.projection-store-latency", "");

    /** Runs {@code work} with the projection's store-latency model on, if one is set; says so in its name. */
    private <T> T underProjectionLatency(ProcessHarness harness, java.util.concurrent.Callable<T> work)
            throws Exception {
        if (PROJECTION_LATENCY.isBlank()) {
            return work.call();
        }
        String[] model = PROJECTION_LATENCY.split(",");
        harness.dynalite.hooks().latency(Duration.ofNanos((long) (Double.parseDouble(model[0]) * 1e6)),
                Duration.ofNanos((long) (Double.parseDouble(model[1]) * 1e6)));
        try {
            return work.call();
        } finally {
            harness.dynalite.hooks().noLatency();
        }
    }

    /** How the projection phase and the naive projector were measured, for their rows' names. */
    private static String projectionModel() {
        return PROJECTION_LATENCY.isBlank() ? "" : " (store-latency model " + PROJECTION_LATENCY.replace(",", " ms p50, ")
                + " ms p99)";
    }

    /**
     * The store-latency model (cabinet.bench.store-latency, median and p99 in ms, default 3,10: DynamoDB in one region):
     * every store call answers after a log-normal delay (dynalite's store-hooks.js), so that a freshness phase
     * measures an event's rounds as production pays them rather than the contention of two cores. One unmeasured phase
     * at the rate, then the measured one, then the store answers at once again.
     */
    private void freshnessWithStoreLatency(ProcessHarness harness, Http http, CrashClient client, AppProcess projector,
            RawStore raw, double rate) throws Exception {
        String[] model = System.getProperty("cabinet.bench.store-latency", "3,10").split(",");
        if (model.length != 2 || Double.parseDouble(model[0]) <= 0) {
            return;
        }
        Duration median = Duration.ofNanos((long) (Double.parseDouble(model[0]) * 1e6));
        Duration p99 = Duration.ofNanos((long) (Double.parseDouble(model[1]) * 1e6));
        harness.dynalite.hooks().latency(median, p99);
        storeLatency = String.format("with the store-latency model (each call %s ms p50, %s ms p99)", model[0].trim(),
                model[1].trim());
        try {
            caughtUp(projector);
            freshness(http, client, projector, raw, rate, "freshness warm-up " + storeLatency);
            caughtUp(projector);
            freshness(http, client, projector, raw, rate, null);
        } finally {
            storeLatency = null;
            harness.dynalite.hooks().noLatency();
        }
    }

    /**
     * One freshness phase at {@code rate}: measured, or a warm-up (named by {@code warmUp}) reported as notes only.
     */
    private void freshness(Http http, CrashClient client, AppProcess projector, RawStore raw, double rate,
            String warmUp) throws Exception {
        String phase = warmUp != null ? warmUp : storeLatency == null ? "freshness" : "freshness " + storeLatency;
        // an author of its own each time: renaming one with thousands of posts would walk them all during the phase
        String author = "bench-fresh-" + freshnessRuns++;
        Meters metersBefore = projectorMeters(projector);
        var agesBefore = metersBefore.buckets(EVENT_AGE);
        client.applied("PUT", "/users/" + author, author, Map.of("name", "Fresh", "email", "fresh@example.com"));
        Map<String, Long> acceptedAt = new ConcurrentHashMap<>();
        Map<String, Long> seenAt = new ConcurrentHashMap<>();
        // when each post not yet seen was sent (wall clock, ms): its creation time is no earlier, so the oldest of them
        // bounds the sort keys a look has to read; commands still in flight count too (their ids are not known yet)
        Map<String, Long> unseenSentAt = new ConcurrentHashMap<>();
        Map<Long, Long> inFlightSentAt = new ConcurrentHashMap<>();
        AtomicLong polls = new AtomicLong();
        AtomicLong keysRead = new AtomicLong();
        Histogram lookLatency = new Histogram(3);
        var watching = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                long sent = System.nanoTime();
                long oldest = java.util.stream.Stream.concat(unseenSentAt.values().stream(),
                        inFlightSentAt.values().stream()).mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
                if (oldest != Long.MAX_VALUE) {
                    try {
                        // the same items GET /users/{id}/posts lists, read from the table it reads (the HTTP read
                        // adds its own latency, measured in the reads phase, not how soon an item is there to read)
                        var page = raw.dynamo.query(q -> q.tableName(TABLE)
                                .keyConditionExpression("pk = :pk AND sk >= :from")
                                .expressionAttributeValues(Map.of(
                                        ":pk", AttributeValue.fromS("USER#" + author),
                                        ":from", AttributeValue.fromS("POST#" + dev.cabinet.shared.Timestamps
                                                .format(java.time.Instant.ofEpochMilli(oldest - 1)))))
                                .projectionExpression("sk").limit(LOOK_LIMIT)).join();
                        long received = System.nanoTime();
                        lookLatency.recordValue(Math.max(1, (received - sent) / 1000));
                        keysRead.addAndGet(page.count());
                        page.items().forEach(item -> {
                            String sk = item.get("sk").s();
                            String id = sk.substring(sk.lastIndexOf('#') + 1);
                            seenAt.putIfAbsent(id, received);
                            unseenSentAt.remove(id);
                        });
                    } catch (RuntimeException e) {
                        // a failed look is just a missed look
                    }
                    polls.incrementAndGet();
                }
                long pause = WATCH_EVERY.toNanos() - (System.nanoTime() - sent);
                if (pause > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(pause);
                }
            }
        }, "freshness-watcher");
        // where the cores went during the phase: the projector, the API, the store and this JVM (the load and the watcher)
        long[] pids = {projector.pid(), running.get("api").pid(), dynalitePid(raw), ProcessHandle.current().pid()};
        String[] names = {"projector", "API", "dynalite", "benchmark JVM (load, watcher)"};
        report.note(atRest(phase, pids, names));
        watcher.start();
        CoreShares phaseCores = CoreShares.from(pids, names);
        Load.constantRate(phase + ": POST /posts", rate, PHASE, 256, sequence -> {
            inFlightSentAt.put(sequence, System.currentTimeMillis());
            return http.send("POST", "/posts", client.token(author), Map.of("title", "Fresh " + sequence, "body", BODY),
                    202).whenComplete((answer, failure) -> {
                        long now = System.nanoTime();
                        Long sentAt = inFlightSentAt.get(sequence);
                        if (answer != null) {
                            String id = answer.get("id").asText();
                            acceptedAt.put(id, now);
                            if (!seenAt.containsKey(id)) {
                                unseenSentAt.put(id, sentAt);
                                if (seenAt.containsKey(id)) {
                                    unseenSentAt.remove(id);
                                }
                            }
                        }
                        inFlightSentAt.remove(sequence);
                    });
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!seenAt.keySet().containsAll(acceptedAt.keySet()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        double phaseSeconds = phaseCores.seconds();
        report.note(phaseCores.since(String.format(
                "%s at %.0f/s, CPU over the phase and the wait for the last post (%.1f s), %% of one core:", phase, rate,
                phaseSeconds), " %s %.0f%%", phaseSeconds));
        watching.set(false);
        watcher.join();
        Histogram freshness = new Histogram(3);
        long missed = 0;
        for (Map.Entry<String, Long> accepted : acceptedAt.entrySet()) {
            Long seen = seenAt.get(accepted.getKey());
            if (seen == null) {
                missed++;
            } else {
                freshness.recordValue(Math.max(1, (seen - accepted.getValue()) / 1000));
            }
        }
        double p50 = freshness.getValueAtPercentile(50) / 1000.0;
        double p99 = freshness.getValueAtPercentile(99) / 1000.0;
        Meters metersAfter = projectorMeters(projector);
        var agesAfter = metersAfter.buckets(EVENT_AGE);
        if (warmUp != null) {
            report.note(String.format("%s at %.0f/s (not measured): 202 until listed p50 %.1f ms, p99 %.1f ms, max %.1f "
                    + "ms; event age when applied p50 %.0f ms, p99 %.0f ms", phase, rate, p50, p99,
                    freshness.getMaxValue() / 1000.0, Meters.quantile(agesBefore, agesAfter, 0.5) * 1000,
                    Meters.quantile(agesBefore, agesAfter, 0.99) * 1000));
        } else {
            boolean complete = missed == 0 && freshness.getTotalCount() > 0;
            if (storeLatency == null) {
                lastFreshness = new FreshnessFigures(rate, p50, p99, freshness.getMaxValue() / 1000.0);
                report.bound("freshness", String.format("202 until GET /users/{id}/posts lists it, at %.0f commands/s, "
                        + "after %d warm-up phases at that rate (p50)", rate, FRESHNESS_WARM_UPS), p50, Double.NaN, "ms",
                        "p50 ≤ 30 ms", p50 <= 30 && complete);
                report.bound("freshness", String.format("the same, p99 (max %.0f ms)", freshness.getMaxValue() / 1000.0),
                        p99, Double.NaN, "ms", "p99 ≤ 100 ms", p99 <= 100 && complete);
            } else {
                report.bound("freshness", String.format("the same at %.0f commands/s %s (p50)", rate, storeLatency), p50,
                        Double.NaN, "ms", "p50 ≤ 25 ms", p50 <= 25 && complete);
                report.bound("freshness", String.format("the same, p99 (max %.0f ms)", freshness.getMaxValue() / 1000.0),
                        p99, Double.NaN, "ms", "p99 ≤ 60 ms", p99 <= 60 && complete);
            }
            report.bound("freshness", String.format("the projector's part: event age when applied (record timestamp to "
                    + "the projection's last write), p50 (p99 %.0f ms)", Meters.quantile(agesBefore, agesAfter, 0.99) * 1000),
                    Meters.quantile(agesBefore, agesAfter, 0.5) * 1000, Double.NaN, "ms", "reference", true);
        }
        // Where the projector's part goes: the event's age when its batch reached the engine, and when its application
        // started (the rest, to the event age, is applying it).
        StringBuilder ages = new StringBuilder(phase + ", the projector's part by step (event age p50 / p99):");
        for (String step : List.of(EVENT_RECEIVED_AGE, EVENT_STARTED_AGE, EVENT_AGE)) {
            ages.append(String.format(" %s %.0f / %.0f ms;", step,
                    Meters.quantile(metersBefore.buckets(step), metersAfter.buckets(step), 0.5) * 1000,
                    Meters.quantile(metersBefore.buckets(step), metersAfter.buckets(step), 0.99) * 1000));
        }
        report.note(ages.toString());
        // What an event's rounds cost: the projector's store calls over the phase by operation (mean latency as the
        // projector saw it, queueing in dynalite's one thread included), and the mean time to apply one event by type
        StringBuilder calls = new StringBuilder(phase + ", the projector's store calls during the phase (count, mean):");
        Meters.means(metersBefore, metersAfter, "cabinet_dynamodb_calls_seconds", "operation",
                labels -> labels.contains("outcome=\"success\"")).forEach((operation, mean) -> calls.append(
                        String.format(" %s %.0f, %.2f ms;", operation, mean[0], mean[1])));
        // and their tails, as bucket bounds: whether a slow post is one slow call or many ordinary ones
        calls.append(" p50 / p99 (bucket bounds):");
        for (String operation : List.of("BatchGetItem", "UpdateItem")) {
            calls.append(p50p99(metersBefore, metersAfter, operation, "cabinet_dynamodb_calls_seconds",
                    text -> text.contains("operation=\"" + operation + "\"") && text.contains("outcome=\"success\"")));
        }
        calls.append(p50p99(metersBefore, metersAfter, "applying a post", "cabinet_projection_applied_seconds",
                text -> text.contains("type=\"cabinet.post.created.v1\"")));
        calls.append(" applying one event (count, mean):");
        Meters.means(metersBefore, metersAfter, "cabinet_projection_applied_seconds", "type", labels -> true)
                .forEach((type, mean) -> calls.append(String.format(" %s %.0f, %.2f ms;", type, mean[0], mean[1])));
        report.note(calls.toString());
        report.note(String.format("%s: %d commands accepted, %d seen, %d not seen within 15 s; the watcher looked "
                + "%d times (every %d ms, a Query of the summaries created since the oldest unseen post: %.1f keys a look, "
                + "each look p50 %.2f ms, p99 %.2f ms), so figures are up to that pause plus one look late", phase, acceptedAt.size(),
                acceptedAt.size() - missed, missed, polls.get(), WATCH_EVERY.toMillis(),
                polls.get() == 0 ? 0.0 : (double) keysRead.get() / polls.get(), lookLatency.getValueAtPercentile(50) / 1000.0,
                lookLatency.getValueAtPercentile(99) / 1000.0));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Projection: a backlog drained by the projector vs the same store calls made directly
    // ---------------------------------------------------------------------------------------------------------------

    private Map<String, Object> projection(ProcessHarness harness, Http http, CrashClient client, AppProcess projector,
            RawStore raw, Load.Result live) throws Exception {
        KafkaBroker broker = harness.broker;
        freeze(projector);
        Load.Result backlog;
        try {
            backlog = Load.closedLoop("commands, projector frozen: POST /posts", CONCURRENCY, PHASE,
                    sequence -> createPost(http, client, user((int) (sequence % USERS)), sequence));
            recorder.start(dynalitePid(raw));
        } finally {
            thaw(projector);
        }
        Drain drain;
        double scrapeCpu;
        List<String> recorded;
        try (Http meters = new Http(projector::uri)) {
            drain = underProjectionLatency(harness, () -> drain(meters, projector::pid, raw, () -> { }));
            recorded = recorder.stop(dynalitePid(raw), "projection");
            scrapeCpu = scrapeCpuSeconds(meters, projector.pid());
        }
        commandsAlone(backlog, live, broker);
        Map<String, Double> mix = drain.calls();
        Replay replayed = underProjectionLatency(harness, () -> replay(raw, "bench-raw", recorded, projector.pid(),
                "projection"));
        report.ratio("projection", String.format("items written per second draining a backlog of %d events (%.0f "
                + "events/s)%s", backlog.completed(), drain.eventsPerSecond(), projectionModel()), drain.writesPerSecond(),
                replayed.writesPerSecond(), "/s", 0.9);
        report.note(storeCostPerCall("projection", drain, replayed));
        report.note("projection: the projector's DynamoDB calls while draining (its meters), replayed raw at "
                + "concurrency " + PROJECTION_CONCURRENCY + ": " + mix);
        projectionRate = drain.eventsPerSecond();
        projectionCpu = drain.cpuPerEvent();
        report.note("projection: where the cores went while draining, % of one core:" + drain.cores());
        report.note(String.format("projection: the projector's CPU while draining (/proc): %.2f ms per event applied, %.0f%% "
                + "of one core; %s", drain.cpuPerEvent() * 1e3, drain.cpuSeconds() / drain.seconds() * 100,
                scrapeShare(drain, scrapeCpu)));
        double sustainable = Math.min(live.perSecond(), drain.eventsPerSecond());
        report.note(String.format("sustainable command rate: %.0f/s, the lower of commands accepted while projecting "
                + "(%.0f/s) and events projected per second (%.0f/s)", sustainable, live.perSecond(),
                drain.eventsPerSecond()));
        return Map.of("sustainable", sustainable);
    }

    /** What a projector did from its first applied event until it had caught up (or in the second half of that). */
    record Drain(double seconds, double events, Map<String, Double> calls, double cpuSeconds, int scrapes,
            String cores, double storeCpuSeconds, Drain secondHalf) {

        /** dynalite's CPU time per store call the projector made, in seconds. */
        double storeCpuPerCall() {
            return storeCpuSeconds / calls.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        double eventsPerSecond() {
            return events / seconds;
        }

        /** The projector's CPU time (user + system, every thread) per event applied, in seconds. */
        double cpuPerEvent() {
            return cpuSeconds / events;
        }

        double writesPerSecond() {
            return calls.entrySet().stream().filter(call -> WireRequests.WRITES.contains(call.getKey()))
                    .mapToDouble(Map.Entry::getValue).sum() / seconds;
        }
    }


    /** Something that starts the projector, or nothing when it is already running. */
    @FunctionalInterface
    interface Starter {
        void start() throws Exception;
    }

    /**
     * How often the drain looks at the projector: its readiness check (its lag per partition, kept in memory) and
     * /proc. Its meters, /q/metrics with hundreds of Kafka client meters, are rendered by the projector and parsed here
     * only every {@link #SCRAPE_EVERY}, and at each look that finds the projector idle (where a window ends): scraped
     * every second, the benchmark's own JVM took 12-13% of a core in the drain, 5-7% so (6 December, two runs each).
     * The projector's CPU per event did not move beyond these cores' noise (4.99 and 5.65 ms, against 6.13 and 5.05).
     */
    private static final Duration LOOK_EVERY = Duration.ofMillis(Long.getLong("cabinet.bench.drain-look-ms", 1000));
    private static final Duration SCRAPE_EVERY = Duration.ofMillis(Long.getLong("cabinet.bench.drain-scrape-ms", 5000));
    /** A partition's entry in the projector's readiness data: "{seconds} s, {events} events" behind. */
    private static final java.util.regex.Pattern PARTITION_LAG = java.util.regex.Pattern.compile(
            "\"(\\d+\\.\\d) s, (\\d+) events\"");

    /**
     * Takes the projector's meters every {@link #SCRAPE_EVERY}, and whenever its readiness check (looked at every
     * {@link #LOOK_EVERY}) shows no lag, from before it starts, until it has applied events and then shows no lag and
     * no new event for three samples in a row: the window from the first sample with events applied to the first of
     * those quiet ones.
     */
    private static Drain drain(Http projector, java.util.function.LongSupplier pid, RawStore raw, Starter starter)
            throws Exception {
        List<Look> looks = new java.util.concurrent.CopyOnWriteArrayList<>();
        // the store, the broker and this JVM keep their pids for the drain; only the projecting instance may start late
        long[] pids = drainPids(-1, raw);
        var sampling = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            long scrapedAt = 0;
            while (sampling.get()) {
                long at = System.nanoTime();
                try {
                    boolean started = !looks.isEmpty() && events(looks.get(looks.size() - 1).meters()) > 0;
                    if (!started || at - scrapedAt >= SCRAPE_EVERY.toNanos() || idle(projector)) {
                        Meters meters = new Meters(projector.text("/q/metrics"));
                        pids[0] = pid.getAsLong();
                        looks.add(new Look(at, meters, Usage.of(pids)));
                        scrapedAt = at;
                    }
                } catch (RuntimeException e) {
                    // not answering yet
                }
                java.util.concurrent.locks.LockSupport.parkNanos(Math.max(0, LOOK_EVERY.toNanos() - (System.nanoTime() - at)));
            }
        }, "meter-sampler");
        sampler.start();
        try {
            starter.start();
            long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
            while (System.nanoTime() < deadline) {
                Thread.sleep(100);
                int first = -1;
                List<Meters> samples = looks.stream().map(Look::meters).toList();
                for (int i = 0; i < samples.size() && first < 0; i++) {
                    if (samples.get(i).sum("cabinet_projection_events_total") > 0) {
                        first = i;
                    }
                }
                for (int i = Math.max(first, 0); first >= 0 && i + 2 < samples.size(); i++) {
                    if (quiet(samples.get(i)) && quiet(samples.get(i + 1)) && quiet(samples.get(i + 2))
                            && events(samples.get(i)) == events(samples.get(i + 2))) {
                        if (events(samples.get(i)) > events(samples.get(first))) {
                            int middle = first + (i - first) / 2;
                            Drain secondHalf = window(looks, middle, i, null);
                            return window(looks, first, i, secondHalf);
                        }
                        // A log so short (the short mode's) that all of it was applied before the first look at the
                        // meters: timed from the look before, if any; too few events for a figure, enough to go on.
                        int from = Math.max(first - 1, 0);
                        return window(looks, from, i, window(looks, from, i, null));
                    }
                }
            }
            throw new IllegalStateException("the projector did not catch up within 20 minutes");
        } finally {
            sampling.set(false);
            sampler.join();
        }
    }

    /**
     * The CPU one rendering of /q/metrics costs the instance, measured at rest after its drain: its CPU over
     * {@value #SCRAPES} scrapes less what it spends over as long a rest (its consumers poll while idle). The drain
     * scrapes once a second where a deployment's Prometheus scrapes every 15 to 60 s, so its figures carry this much of
     * the benchmark's own doing.
     */
    private static double scrapeCpuSeconds(Http meters, long pid) throws InterruptedException {
        double before = Cpu.seconds(pid);
        long started = System.nanoTime();
        Thread.sleep(2_000);
        double atRestPerSecond = (Cpu.seconds(pid) - before) / ((System.nanoTime() - started) / 1e9);
        before = Cpu.seconds(pid);
        started = System.nanoTime();
        for (int scrape = 0; scrape < SCRAPES; scrape++) {
            meters.text("/q/metrics");
        }
        double spent = Cpu.seconds(pid) - before - atRestPerSecond * (System.nanoTime() - started) / 1e9;
        return Math.max(0, spent / SCRAPES);
    }

    private static final int SCRAPES = 20;

    /** " {what} ≤ p50 / ≤ p99 ms;" of a histogram's samples whose labels pass {@code labels}, between two pages. */
    private static String p50p99(Meters before, Meters after, String what, String histogram, Predicate<String> labels) {
        return String.format(" %s ≤ %.0f / ≤ %.0f ms;", what,
                Meters.quantile(before, after, histogram, labels, 0.5) * 1000,
                Meters.quantile(before, after, histogram, labels, 0.99) * 1000);
    }

    /** What each process spends with nothing asked of it, over two seconds: the part of a phase's CPU no request causes. */
    private static String atRest(String phase, long[] pids, String[] names) throws InterruptedException {
        CoreShares rest = CoreShares.from(pids, names);
        Thread.sleep(2_000);
        return rest.since(phase + ": CPU at rest just before the phase, % of one core:", " %s %.1f%%", rest.seconds());
    }

    /**
     * Each process's CPU (/proc) from when this was made, the part of it its JIT compiler threads took, and how long its
     * threads waited for a core: where the cores went, and who waited for them (a pid below 0 is a process not found).
     */
    private record CoreShares(long[] pids, String[] names, Usage start) {

        static CoreShares from(long[] pids, String[] names) {
            return new CoreShares(pids, names, Usage.of(pids));
        }

        double seconds() {
            return (System.nanoTime() - start.at()) / 1e9;
        }

        /**
         * {@code lead}, then each process's name and % of one core over {@code seconds} as {@code format}, with the
         * share of its JIT compiler threads where it has any, and its threads' wait for a core: milliseconds of waiting
         * per second of the phase (summed over threads, so the average number of them waiting, × 1000) and per
         * millisecond of CPU it got.
         */
        String since(String lead, String format, double seconds) {
            return start.until(Usage.of(pids), names, lead, format, seconds);
        }
    }

    /** Each process's CPU, its JIT compiler threads' CPU and its threads' wait for a core at one moment (/proc). */
    private record Usage(long at, double[] cpu, double[] jit, double[] waiting, Cpu.MachineTicks machine) {

        /** A pid below 0 is a process not found: its figures are NaN. */
        static Usage of(long[] pids) {
            double[] cpu = new double[pids.length];
            double[] jit = new double[pids.length];
            double[] waiting = new double[pids.length];
            for (int i = 0; i < pids.length; i++) {
                cpu[i] = pids[i] < 0 ? Double.NaN : Cpu.seconds(pids[i]);
                jit[i] = pids[i] < 0 ? Double.NaN : Cpu.compilerSeconds(pids[i]);
                waiting[i] = pids[i] < 0 ? Double.NaN : Cpu.waitingSeconds(pids[i]);
            }
            return new Usage(System.nanoTime(), cpu, jit, waiting, Cpu.machine());
        }

        /** See {@link CoreShares#since}: the shares from this moment until {@code end}. */
        String until(Usage end, String[] names, String lead, String format, double seconds) {
            StringBuilder shares = new StringBuilder(lead);
            for (int i = 0; i < names.length; i++) {
                double used = end.cpu[i] - cpu[i];
                if (Double.isNaN(used)) {
                    shares.append(' ').append(names[i]).append(" not running;");
                    continue;
                }
                shares.append(String.format(format, names[i], used / seconds * 100));
                double compiling = (end.jit[i] - jit[i]) / seconds * 100;
                if (compiling > 0) {
                    shares.append(String.format(" (JIT compiling %.1f%%)", compiling));
                }
                double waited = end.waiting[i] - waiting[i];
                if (!Double.isNaN(waited)) {
                    shares.append(String.format(" waited for a core %.0f ms/s", waited / seconds * 1000));
                    if (used > 0) {
                        shares.append(String.format(" (%.2f ms per ms run)", waited / used));
                    }
                }
                shares.append(';');
            }
            return shares.append(' ').append(end.machine.since(machine)).toString();
        }
    }

    /**
     * The broker's JVM (the child process whose main class is kafka.Kafka), or -1. Read from /proc/<pid>/cmdline:
     * ProcessHandle's command line is cut at a page, before the main class that follows the broker's long class path.
     */
    private static long brokerPid() {
        return ProcessHandle.current().descendants().filter(process -> {
            try {
                byte[] line = java.nio.file.Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
                return new String(line, java.nio.charset.StandardCharsets.US_ASCII).contains("\0kafka.Kafka\0");
            } catch (java.io.IOException e) {
                return false;
            }
        }).mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }

    /** The processes whose cores a drain or a raw replay shares, the projecting instance first. */
    private static final String[] DRAIN_PROCESSES = {"projecting instance", "dynalite", "broker",
            "benchmark JVM"};

    private static long[] drainPids(long projecting, RawStore raw) {
        return new long[] {projecting, dynalitePid(raw), brokerPid(), ProcessHandle.current().pid()};
    }

    /** What the drain's own scrapes of /q/metrics cost per event: how many it made in its window, at their cost. */
    private static String scrapeShare(Drain drain, double scrapeCpuSeconds) {
        double perEvent = drain.scrapes() * scrapeCpuSeconds / drain.events();
        return String.format("of which the benchmark's %d scrapes of /q/metrics (%.1f ms of CPU each, measured at rest "
                + "afterwards) %.2f ms per event", drain.scrapes(), scrapeCpuSeconds * 1e3, perEvent * 1e3);
    }

    /**
     * One look at the projector: when, its meters, and what it and the processes beside it had used by then (its CPU
     * first, see {@link #drainPids}).
     */
    private record Look(long at, Meters meters, Usage usage) {

        double cpuSeconds() {
            return usage.cpu()[0];
        }
    }

    private static Drain window(List<Look> looks, int from, int to, Drain secondHalf) {
        Meters start = looks.get(from).meters();
        Meters end = looks.get(to).meters();
        Map<String, Double> calls = new TreeMap<>();
        Map<String, Double> before = start.storeCalls();
        end.storeCalls().forEach((operation, count) -> {
            if (DATA_PLANE.contains(operation)) {
                calls.put(operation, count - before.getOrDefault(operation, 0.0));
            }
        });
        double seconds = (looks.get(to).at() - looks.get(from).at()) / 1e9;
        String cores = looks.get(from).usage().until(looks.get(to).usage(), DRAIN_PROCESSES, "", " %s %.0f%%", seconds);
        return new Drain(seconds, events(end) - events(start), calls,
                looks.get(to).cpuSeconds() - looks.get(from).cpuSeconds(), to - from, cores,
                looks.get(to).usage().cpu()[1] - looks.get(from).usage().cpu()[1], secondHalf);
    }

    /** The store's data-plane operations: the ones the projector makes, which a replay makes again. */
    private static final Set<String> DATA_PLANE = WireRequests.OPERATIONS.keySet();

    /** Whether the projector's readiness check shows no partition behind (a cheap look: its lag is kept in memory). */
    private static boolean idle(Http projector) {
        java.util.regex.Matcher partition = PARTITION_LAG.matcher(projector.text("/q/health/ready"));
        boolean any = false;
        while (partition.find()) {
            any = true;
            if (Double.parseDouble(partition.group(1)) > 0 || Long.parseLong(partition.group(2)) > 0) {
                return false;
            }
        }
        return any;
    }

    private static boolean quiet(Meters meters) {
        return meters.sum("cabinet_projection_offset_lag") == 0 && meters.sum("cabinet_projection_time_lag_seconds") == 0;
    }

    private static double events(Meters meters) {
        return meters.sum("cabinet_projection_events_total");
    }

    /**
     * The projector's own store calls, as dynalite recorded them while it drained (at most {@value #MAX_REPLAY} of
     * them, in the order they reached the store), made again directly through the SDK's client into a new table
     * ({@code table}, created like the application's) at
     * the projector's concurrency, after an untimed tenth of them into another (so this JVM's client is as warm as the
     * projector's). The replay keeps each call's items, expressions and conditions and drops the projector's work
     * around them: deciding, ordering each stream's calls, waiting for one round before the next.
     */
    private Replay replay(RawStore raw, String table, List<String> recorded, long projecting, String phase) {
        // the data plane only: a starting instance also describes (or creates) its table
        List<String> lines = recorded.stream().filter(line -> DATA_PLANE.contains(WireRequests.operation(line)))
                .limit(MAX_REPLAY).toList();
        raw.createLike(TABLE, table);
        raw.createLike(TABLE, table + "-warm");
        replayOnce(raw, "warm", lines.subList(0, lines.size() / 10).stream()
                .map(line -> WireRequests.read(line, table + "-warm")).toList());
        List<WireRequests.Call> calls = lines.stream().map(line -> WireRequests.read(line, table)).toList();
        long[] pids = drainPids(projecting, raw);
        Usage start = Usage.of(pids);
        ReplayRun run = replayOnce(raw, "timed", calls);
        Usage end = Usage.of(pids);
        // the same processes as in the drain: what the store got when the calls came without the projector's work
        report.note(start.until(end, DRAIN_PROCESSES, phase + ": where the cores went during its raw replay (the "
                + "projecting instance idle or stopped), % of one core:", " %s %.0f%%", (end.at() - start.at()) / 1e9));
        report.note(String.format("%s: the raw replay made %d of the %d calls dynalite recorded while the instance drained "
                + "(%s); %d of its writes were refused by their condition (a call goes out without waiting for the one "
                + "before it, and the projection's table already held earlier items), %d calls failed otherwise", phase, calls.size(), recorded.size(),
                mixOf(calls), run.refused(), run.failed()));
        return new Replay(run.writes() / run.seconds(), (end.cpu()[1] - start.cpu()[1]) / calls.size(), calls.size());
    }

    private static Map<String, Long> mixOf(List<WireRequests.Call> calls) {
        return calls.stream().collect(java.util.stream.Collectors.groupingBy(WireRequests.Call::operation, TreeMap::new,
                java.util.stream.Collectors.counting()));
    }

    /** A raw replay: its writes per second, and dynalite's CPU time per call it made (seconds). */
    private record Replay(double writesPerSecond, double storeCpuPerCall, double calls) {
    }

    /**
     * What one call costs the store, the projector's against the replay's: the same calls, so a figure far from 1
     * would say the replay is not what the projector did (the store's work per call also grows with its table).
     */
    private static String storeCostPerCall(String phase, Drain drain, Replay replayed) {
        return String.format("%s: dynalite's CPU per store call (/proc): %.2f ms for the projecting instance's, %.2f ms "
                + "for the raw replay's (%.0f calls): the instance's calls cost the store %.2f× the replayed ones", phase,
                drain.storeCpuPerCall() * 1e3, replayed.storeCpuPerCall() * 1e3, replayed.calls(),
                drain.storeCpuPerCall() / replayed.storeCpuPerCall());
    }

    /** Enough calls for a stable rate; a longer replay of the same calls says nothing more. */
    private static final int MAX_REPLAY = 120_000;

    /** One replay: write calls the store answered (a write refused by its condition included, as in the drain's). */
    private record ReplayRun(long writes, long refused, long failed, double seconds) {
    }

    private static ReplayRun replayOnce(RawStore raw, String run, List<WireRequests.Call> calls) {
        System.out.println("[bench] replaying " + calls.size() + " recorded calls (" + run + ")");
        Semaphore inFlight = new Semaphore(PROJECTION_CONCURRENCY);
        AtomicLong writes = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long started = System.nanoTime();
        for (WireRequests.Call call : calls) {
            inFlight.acquireUninterruptibly();
            call.sendTo(raw.dynamo).whenComplete((ignored, failure) -> {
                inFlight.release();
                Throwable cause = failure instanceof java.util.concurrent.CompletionException ? failure.getCause() : failure;
                if (cause instanceof software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException) {
                    refused.incrementAndGet();
                    writes.incrementAndGet();
                } else if (cause != null) {
                    failures.add(cause);
                } else if (call.isWrite()) {
                    writes.incrementAndGet();
                }
            });
        }
        inFlight.acquireUninterruptibly(PROJECTION_CONCURRENCY);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("[bench] raw replay of %d calls (%d writes, %d refused by their condition) in %.1f s, %d "
                + "failed%s%n", calls.size(), writes.get(), refused.get(), seconds, failures.size(),
                failures.isEmpty() ? "" : ", the first: " + failures.peek());
        return new ReplayRun(writes.get(), refused.get(), failures.size(), seconds);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Rebuild: the whole log replayed into a new table by a fresh projector
    // ---------------------------------------------------------------------------------------------------------------

    private void rebuild(ProcessHarness harness, RawStore raw) throws Exception {
        AppProcess rebuilder = harness.app("rebuild", Map.of("cabinet.role", "projector",
                "cabinet.table.projection-target", "cabinet-rebuild-benchmark",
                "mp.messaging.incoming.events.group.id", "cabinet-rebuild-bench"), jvm("rebuild"));
        Drain drain;
        double scrapeCpu;
        List<String> recorded;
        try (Http meters = new Http(rebuilder::uri)) {
            recorder.start(dynalitePid(raw));
            drain = drain(meters, rebuilder::pid, raw, () -> {
                rebuilder.start();
                running.put("rebuild", rebuilder);
            });
            recorded = recorder.stop(dynalitePid(raw), "rebuild");
            scrapeCpu = scrapeCpuSeconds(meters, rebuilder.pid());
        }
        running.remove("rebuild");
        rebuilder.stopGracefully(Duration.ofSeconds(40));
        rebuildRate = drain.eventsPerSecond();
        rebuildCpu = drain.cpuPerEvent();
        report.note(String.format("rebuild: the rebuilding instance's CPU (/proc): %.2f ms per event applied, %.0f%% of one "
                + "core; %s", drain.cpuPerEvent() * 1e3, drain.cpuSeconds() / drain.seconds() * 100,
                scrapeShare(drain, scrapeCpu)));
        report.note("rebuild: where the cores went while replaying the log, % of one core:" + drain.cores());
        Replay replayed = replay(raw, "bench-raw-rebuild", recorded, -1, "rebuild");
        report.ratio("rebuild", String.format("items written per second replaying the log into a new table (%.0f events "
                + "in %.1f s = %.0f events/s)", drain.events(), drain.seconds(), drain.eventsPerSecond()),
                drain.writesPerSecond(), replayed.writesPerSecond(), "/s", 0.9);
        report.ratio("rebuild", String.format("the same in the second half of the replay, once the new JVM is warm (%.0f "
                + "events/s)", drain.secondHalf().eventsPerSecond()), drain.secondHalf().writesPerSecond(),
                replayed.writesPerSecond(), "/s", 0.9);
        report.note(storeCostPerCall("rebuild", drain, replayed));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Reads: GetItem-, Query- and merged-feed-backed endpoints vs the raw calls at the same concurrency
    // ---------------------------------------------------------------------------------------------------------------

    private void reads(AppProcess api, Http http, CrashClient client, RawStore raw) throws Exception {
        String reader = user(0);
        List<String> posts = postsByUser.get(reader);
        int published = Math.min(100, posts.size() - 1);
        for (int i = 0; i < published; i++) {
            http.send("POST", "/posts/" + posts.get(i) + "/publish", client.token(reader), Map.of(), 202).join();
        }
        client.applied("POST", "/posts/" + posts.get(published) + "/publish", reader, Map.of());
        String token = client.token(reader);
        read(api, http, token, "GetItem: GET /users/{id}", "/users/" + reader,
                () -> raw.getItem(TABLE, "USER#" + reader, "PROFILE"));
        read(api, http, token, "Query: GET /users/{id}/posts?limit=20", "/users/" + reader + "/posts?limit=20",
                () -> raw.query(TABLE, "USER#" + reader, "POST#", 20));
        read(api, http, token, "merged sharded feed: GET /posts?status=published&limit=20",
                "/posts?status=published&limit=20", () -> raw.shardedQuery(TABLE, "POSTS#PUBLISHED#", 4, 20));
    }

    private void read(AppProcess api, Http http, String token, String path, String uri,
            java.util.function.Supplier<CompletableFuture<?>> rawCall) {
        Load.Result cabinet = closedGet(path, api, http, uri, token);
        Load.Result raw = Load.closedLoop(path + " (raw)", CONCURRENCY, PHASE, sequence -> rawCall.get());
        report.ratio("reads", path + ": throughput at " + CONCURRENCY + " concurrent callers", cabinet.perSecond(),
                raw.perSecond(), "/s", 0.8);
        double rate = cabinet.perSecond() / 2;
        Load.Result cabinetAtRate = Load.constantRate(path, rate, PHASE, 256, sequence -> http.get(uri, token, 200));
        Load.Result rawAtRate = Load.constantRate(path + " (raw)", rate, PHASE, 256, sequence -> rawCall.get());
        report.bound("reads", String.format("%s: p99 at %.0f/s (p50 %.2f ms vs %.2f ms raw; max %.1f vs %.1f ms)", path,
                rate, cabinetAtRate.p50Millis(), rawAtRate.p50Millis(), cabinetAtRate.maxMillis(), rawAtRate.maxMillis()),
                cabinetAtRate.p99Millis(), rawAtRate.p99Millis(), "ms",
                "p99 within 2 ms of raw", cabinetAtRate.p99Millis() - rawAtRate.p99Millis() <= 2.0);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Scale: query latency with 10k items and with 1M items in the table
    // ---------------------------------------------------------------------------------------------------------------

    /** The small table's latencies, measured first, before the other phases add items. */
    private Load.Result[] scaleSmall;
    private long smallTable;

    private void scaleSmall(Http http, CrashClient client, RawStore raw) {
        String reader = user(0);
        String token = client.token(reader);
        for (int i = 0; i < 40; i++) {
            createPost(http, client, reader, i).join();
        }
        client.applied("POST", "/posts", reader, Map.of("title", "Last of the first", "body", BODY));
        long items = raw.count(TABLE);
        smallTable = items + fill(raw, 0, Math.max(0, SMALL_TABLE - items));
        Load.closedLoop("warm-up: GET /users/{id}", CONCURRENCY, warm(10),
                sequence -> http.get("/users/" + reader, token, 200));
        Load.closedLoop("warm-up: GET /users/{id}/posts", CONCURRENCY, warm(10),
                sequence -> http.get("/users/" + reader + "/posts?limit=20", token, 200));
        scaleSmall = scaleReads(http, token, reader, smallTable);
    }

    /** Fills the table up to the large size (after every other phase, so none runs against a bigger store than this). */
    private void scaleLarge(Http http, CrashClient client, RawStore raw) {
        String reader = user(0);
        long items = raw.count(TABLE);
        long started = System.nanoTime();
        long loaded = fill(raw, SMALL_TABLE, Math.max(0, LARGE_TABLE - items));
        double loadSeconds = (System.nanoTime() - started) / 1e9;
        long large = items + loaded;
        report.note(String.format("scale: %,d filler items loaded with BatchWriteItem (25 per call, 16 calls in flight) in "
                + "%.0f s = %,.0f items/s, the store's raw bulk write rate", loaded, loadSeconds, loaded / loadSeconds));
        Load.Result[] atLarge = scaleReads(http, client.token(reader), reader, large);
        scaleRow("GetItem: GET /users/{id}", smallTable, large, scaleSmall[0], atLarge[0]);
        scaleRow("Query: GET /users/{id}/posts?limit=20", smallTable, large, scaleSmall[1], atLarge[1]);
    }

    private static Load.Result[] scaleReads(Http http, String token, String reader, long items) {
        double rate = 200;
        return new Load.Result[] {
                Load.constantRate("GET /users/{id} with " + items + " items", rate, PHASE, 256,
                        sequence -> http.get("/users/" + reader, token, 200)),
                Load.constantRate("GET /users/{id}/posts with " + items + " items", rate, PHASE, 256,
                        sequence -> http.get("/users/" + reader + "/posts?limit=20", token, 200)) };
    }

    private void scaleRow(String path, long small, long large, Load.Result atSmall, Load.Result atLarge) {
        double ratio = atLarge.p50Millis() / atSmall.p50Millis();
        report.bound("scale", String.format("%s p50 with %,d items (vs %,d items; p99 %.2f vs %.2f ms)", path, large, small,
                atLarge.p99Millis(), atSmall.p99Millis()), atLarge.p50Millis(), atSmall.p50Millis(), "ms",
                String.format("≤ 1.2× (%.2f×)", ratio), ratio <= 1.2);
    }

    /** Writes {@code count} filler items numbered from {@code first}; returns how many it wrote. */
    private static long fill(RawStore raw, long first, long count) {
        Semaphore inFlight = new Semaphore(16);
        long batches = (count + 24) / 25;
        for (long b = 0; b < batches; b++) {
            inFlight.acquireUninterruptibly();
            raw.fillerBatch(TABLE, first + b * 25).whenComplete((ignored, failure) -> {
                inFlight.release();
                if (failure != null) {
                    System.out.println("[bench] filler batch failed: " + failure);
                }
            });
            if (b % 4000 == 0 && b > 0) {
                System.out.printf("[bench] %,d filler items written%n", b * 25);
            }
        }
        inFlight.acquireUninterruptibly(16);
        return batches * 25;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The HTTP floor and the load generators: an empty endpoint driven by the JDK's client and by wrk
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * GET /q/health/live (no store, no broker) at the benchmark's concurrency, by each generator, with the CPU each
     * generator and the API spent per request; the cheaper generator runs the closed-loop GET phases after it.
     */
    private void floor(AppProcess api, Http http) {
        String path = "/q/health/live";
        Load.closedLoop("warm-up: GET " + path, CONCURRENCY, warm(5), sequence -> http.get(path, "", 200));
        long self = ProcessHandle.current().pid();
        double[] before = new double[2];
        Load.Result jdk = Load.closedLoop("HTTP floor: GET " + path, CONCURRENCY, PHASE,
                sequence -> http.get(path, "", 200), () -> {
                    before[0] = Cpu.seconds(self);
                    before[1] = Cpu.seconds(api.pid());
                });
        double jdkCost = (Cpu.seconds(self) - before[0]) * 1e6 / jdk.completed();
        double jdkServer = (Cpu.seconds(api.pid()) - before[1]) * 1e6 / jdk.completed();
        floorRow("the JDK's java.net.http in the benchmark's JVM", jdk, jdkCost, jdkServer);
        if (!Wrk.available()) {
            report.note("HTTP floor: wrk is not installed (benchmark/run installs Debian's wrk when run as root; "
                    + "otherwise: apt-get install wrk), so every phase ran on the JDK's client");
            return;
        }
        double[] server = new double[1];
        Wrk.Run wrk = Wrk.closedLoop("HTTP floor: GET " + path, api.uri(path), Map.of(), CONCURRENCY, PHASE,
                () -> server[0] = Cpu.seconds(api.pid()));
        double wrkServer = (Cpu.seconds(api.pid()) - server[0]) * 1e6 / wrk.result().completed();
        double wrkCost = wrk.cpuSeconds() * 1e6 / wrk.result().completed();
        floorRow("wrk (one thread)", wrk.result(), wrkCost, wrkServer);
        useWrk = wrkCost < jdkCost;
        report.note(String.format("load generator: the closed-loop GET phases run on %s, which spent %.0f µs of CPU per "
                + "request at the floor against %.0f µs for the other; commands (POST) and every open-loop phase stay on "
                + "the JDK's client (open loop: latency from the intended start, free of coordinated omission)",
                useWrk ? "wrk" : "the JDK's client", Math.min(wrkCost, jdkCost), Math.max(wrkCost, jdkCost)));
    }

    private void floorRow(String generator, Load.Result floor, double generatorCost, double serverCost) {
        report.bound("HTTP floor", String.format("GET /q/health/live per second at %d concurrent callers, load from %s "
                + "(its CPU per request %.0f µs, the API's %.0f µs)", CONCURRENCY, generator, generatorCost, serverCost),
                floor.perSecond(), Double.NaN, "/s", String.format("reference (p50 %.2f ms, p99 %.2f ms, max %.1f ms)",
                        floor.p50Millis(), floor.p99Millis(), floor.maxMillis()), true);
    }

    /** A closed-loop GET phase on the cheaper generator. */
    private Load.Result closedGet(String name, AppProcess app, Http http, String uri, String token) {
        if (useWrk) {
            return Wrk.closedLoop(name, app.uri(uri), Map.of("Authorization", "Bearer " + token), CONCURRENCY, PHASE)
                    .result();
        }
        return Load.closedLoop(name, CONCURRENCY, PHASE, sequence -> http.get(uri, token, 200));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Stalls: every instance records with JFR; the recordings are kept when a phase's max exceeds 10x its p99
    // ---------------------------------------------------------------------------------------------------------------

    /** SIGSTOP, and no recording asked of it meanwhile (jcmd would wait for a frozen JVM). */
    private void freeze(AppProcess projector) throws Exception {
        running.remove("projector");
        projector.pause();
    }

    private void thaw(AppProcess projector) throws Exception {
        projector.resume();
        running.put("projector", projector);
    }

    private void keepRecordingsOfStall(Load.Result phase) {
        if (!JFR || !phase.stalled() || phase.name().startsWith("warm-up") || stallDumps >= MAX_STALL_DUMPS) {
            return;
        }
        stallDumps++;
        Path dir = Path.of("target", "benchmark", "jfr").toAbsolutePath();
        String slug = phase.name().replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
        List<String> kept = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, AppProcess> instance : new TreeMap<>(running).entrySet()) {
                Path file = dir.resolve(String.format("%02d-%s-%s.jfr", stallDumps, slug, instance.getKey()));
                Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(instance.getValue().pid()), "JFR.dump", "name=bench", "filename=" + file)
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (jcmd.waitFor(60, TimeUnit.SECONDS) && jcmd.exitValue() == 0 && Files.exists(file)) {
                    kept.add(file.getFileName().toString());
                } else {
                    jcmd.destroyForcibly();
                }
            }
        } catch (Exception e) {
            kept.add("(dump failed: " + e + ")");
        }
        report.note(String.format("stall: \"%s\" max %.1f ms > 10 × p99 %.2f ms; JFR recordings kept in "
                + "service/target/benchmark/jfr: %s", phase.name(), phase.maxMillis(), phase.p99Millis(), kept));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Baselines: the endpoints a user would write by hand (benchmark/baseline) and a naive projector
    // ---------------------------------------------------------------------------------------------------------------

    private static final String BASELINE_TOPIC = "bench.baseline";
    /** The baseline's POST /watched-posts sends here, and its naive projector follows it. */
    private static final String BASELINE_WATCHED_TOPIC = "bench.baseline.watched";
    private static final String NAIVE_TABLE = "bench-naive";

    private void baselines(ProcessHarness harness, AppProcess api, AppProcess projector, Http http, CrashClient client,
            RawStore raw) throws Exception {
        AppProcess baseline = startBaseline(harness, raw);
        try (Http plain = new Http(baseline::uri)) {
            underProjectionLatency(harness, () -> {
                naiveProjection(plain, baseline);
                return null;
            });
            String reader = user(0);
            String token = client.token(reader);
            Load.closedLoop("warm-up: baseline GET /users/{id}", CONCURRENCY, warm(10),
                    sequence -> plain.get("/users/" + reader, token, 200));
            Load.closedLoop("warm-up: baseline GET /users/{id}/posts", CONCURRENCY, warm(10),
                    sequence -> plain.get("/users/" + reader + "/posts?limit=20", token, 200));
            Load.closedLoop("warm-up: baseline POST /posts", CONCURRENCY, warm(10), sequence -> plain.send("POST",
                    "/posts", token, Map.of("title", "Warm " + sequence, "body", BODY), 202));
            for (String[] read : new String[][] { { "GetItem: GET /users/{id}", "/users/" + reader },
                    { "Query: GET /users/{id}/posts?limit=20", "/users/" + reader + "/posts?limit=20" } }) {
                Load.Result cabinet = closedGet(read[0], api, http, read[1], token);
                Load.Result hand = closedGet(read[0] + " (baseline)", baseline, plain, read[1], token);
                againstBaseline(read[0], api, baseline, cabinet, hand, sequence -> http.get(read[1], token, 200),
                        sequence -> plain.get(read[1], token, 200));
            }
            naiveFreshness(plain, baseline, raw);
            freeze(projector); // the command path alone, as the hand-written endpoint has nothing downstream
            try {
                String author = user(1);
                String writer = client.token(author);
                Load.Result cabinet = Load.closedLoop("command: POST /posts", CONCURRENCY, PHASE,
                        sequence -> createPost(http, client, author, sequence));
                Load.Result hand = Load.closedLoop("command: POST /posts (baseline)", CONCURRENCY, PHASE,
                        sequence -> plain.send("POST", "/posts", writer, Map.of("title", "Bench post " + sequence,
                                "body", BODY), 202));
                againstBaseline("command: POST /posts", api, baseline, cabinet, hand,
                        sequence -> createPost(http, client, author, sequence), sequence -> plain.send("POST", "/posts",
                                writer, Map.of("title", "Bench post " + sequence, "body", BODY), 202));
            } finally {
                thaw(projector);
            }
        } finally {
            running.remove("baseline");
            baseline.stopGracefully(Duration.ofSeconds(40));
        }
        caughtUp(projector);
    }

    /** The hand-written baseline (benchmark/baseline) with Cabinet's JVM settings and a class-data archive of its own. */
    private AppProcess startBaseline(ProcessHarness harness, RawStore raw) throws Exception {
        if (!baselineTopicsAndTable) {
            // once per run: the baselines and commands phases each start the baseline
            KafkaBroker.createTopics(harness.broker.bootstrapServers(), List.of(BASELINE_TOPIC, BASELINE_WATCHED_TOPIC),
                    6);
            raw.createLike(TABLE, NAIVE_TABLE);
            baselineTopicsAndTable = true;
        }
        Path archive = Path.of("target", "benchmark", "baseline-app-cds.jsa").toAbsolutePath();
        new ImageArchiveStep(archive, BaselineApp.DIR).archiveOrFail(
                Path.of("target", "benchmark", "baseline-app-cds.log").toAbsolutePath());
        AppProcess baseline = BaselineApp.process(harness, "baseline", jvm("baseline").stream()
                .map(option -> option.startsWith("-XX:SharedArchiveFile=") ? "-XX:SharedArchiveFile=" + archive : option)
                .toList(), Map.of("baseline.table", TABLE, "baseline.topic", BASELINE_TOPIC,
                        "baseline.watched-topic", BASELINE_WATCHED_TOPIC, "baseline.projector.table", NAIVE_TABLE,
                        "baseline.projector.topics", String.join(",", dev.cabinet.eventlog.Topics.ALL) + ","
                                + BASELINE_WATCHED_TOPIC));
        baseline.start();
        running.put("baseline", baseline);
        return baseline;
    }

    /**
     * The command path against the hand-written endpoint, for issue 41's third item: both JVMs warmed up under load
     * first (cabinet.bench.command-warm-up seconds each, 60 by default: a single phase's ratio moves with what the JITs
     * still compile), then, cabinet.bench.command-rounds times (3), each JVM at rest and at one constant rate (half the
     * slower closed loop's, or cabinet.bench.command-rate) in turn. The medians are the figures: CPU per request, and
     * the same above each JVM's CPU at rest (its timers, pollers and meters, which at a low rate weigh on every request).
     * With cabinet.bench.command-profile=true a JFR recording (profile settings) of the API under the closed loop,
     * summarised by where its samples are.
     */
    private void commandPath(ProcessHarness harness, AppProcess projector, AppProcess api, Http http, CrashClient client,
            RawStore raw) throws Exception {
        AppProcess baseline = startBaseline(harness, raw);
        freeze(projector); // the command path alone, as the hand-written endpoint has nothing downstream
        try (Http plain = new Http(baseline::uri)) {
            String author = user(1);
            String writer = client.token(author);
            Load.Operation onCabinet = sequence -> createPost(http, client, author, sequence);
            Load.Operation onBaseline = sequence -> plain.send("POST", "/posts", writer,
                    Map.of("title", "Bench post " + sequence, "body", BODY), 202);
            Duration warmUp = warm(Integer.getInteger("cabinet.bench.command-warm-up", 60));
            Load.Result cabinetClosed = Load.closedLoop("warm-up: command POST /posts", CONCURRENCY, warmUp, onCabinet);
            Load.Result handClosed = Load.closedLoop("warm-up: baseline POST /posts", CONCURRENCY, warmUp, onBaseline);
            String given = System.getProperty("cabinet.bench.command-rate");
            double rate = given != null ? Double.parseDouble(given)
                    : Math.max(1, Math.floor(Math.min(cabinetClosed.perSecond(), handClosed.perSecond()) / 2));
            int rounds = SHORT ? 1 : Integer.getInteger("cabinet.bench.command-rounds", 3);
            double[][] gross = new double[2][rounds];
            double[][] net = new double[2][rounds];
            for (int round = 0; round < rounds; round++) {
                double[] cabinet = cpuPerRequest("command: POST /posts", api, rate, onCabinet);
                double[] hand = cpuPerRequest("command: POST /posts (baseline)", baseline, rate, onBaseline);
                gross[0][round] = cabinet[0];
                net[0][round] = cabinet[1];
                gross[1][round] = hand[0];
                net[1][round] = hand[1];
            }
            double cabinetCpu = FootprintBenchmark.median(gross[0]);
            double handCpu = FootprintBenchmark.median(gross[1]);
            report.bound("command path", String.format("command: POST /posts: CPU µs per request of the serving JVM at "
                    + "%.0f/s, median of %d phases each after %d s of warm-up (/proc; per phase %s vs %s)", rate, rounds,
                    warmUp.toSeconds(), Arrays.toString(round(gross[0])), Arrays.toString(round(gross[1]))), cabinetCpu,
                    handCpu, "µs", String.format("≤ 1.3× (%.2f×)", cabinetCpu / handCpu), cabinetCpu <= 1.3 * handCpu);
            report.bound("command path", String.format("command: POST /posts: the same above each JVM's CPU at rest "
                    + "(per phase %s vs %s)", Arrays.toString(round(net[0])), Arrays.toString(round(net[1]))),
                    FootprintBenchmark.median(net[0]), FootprintBenchmark.median(net[1]), "µs", String.format("reference (%.2f×)",
                            FootprintBenchmark.median(net[0]) / FootprintBenchmark.median(net[1])), true);
            if (Boolean.getBoolean("cabinet.bench.command-profile")) {
                Path recording = Path.of("target", "benchmark", "command-path.jfr").toAbsolutePath();
                ProfileSummary.record(api.pid(), recording, PHASE, () -> Load.closedLoop("command: POST /posts (profiled)",
                        CONCURRENCY, PHASE, onCabinet));
                report.note("The command path, profiled (" + recording + "): " + ProfileSummary.of(recording));
            }
        } finally {
            thaw(projector);
            running.remove("baseline");
            baseline.stopGracefully(Duration.ofSeconds(40));
        }
    }

    /** A constant-rate phase on one JVM, with that JVM's CPU and its JIT compiler threads' over it (µs per request). */
    private record AtRate(Load.Result result, double cpu, double jit, double seconds) {
    }

    private static AtRate atRate(String path, AppProcess app, double rate, Load.Operation operation) {
        Usage before = Usage.of(new long[] {app.pid()});
        Load.Result result = Load.constantRate(path, rate, PHASE, 256, operation);
        Usage after = Usage.of(new long[] {app.pid()});
        long completed = Math.max(1, result.completed());
        return new AtRate(result, (after.cpu()[0] - before.cpu()[0]) * 1e6 / completed,
                (after.jit()[0] - before.jit()[0]) * 1e6 / completed, (after.at() - before.at()) / 1e9);
    }

    /**
     * CPU µs per request of one JVM over a constant-rate phase, and the same above its CPU at rest, measured over a
     * phase of the same length just before.
     */
    private static double[] cpuPerRequest(String path, AppProcess app, double rate, Load.Operation operation)
            throws InterruptedException {
        Usage restStart = Usage.of(new long[] {app.pid()});
        Thread.sleep(PHASE.toMillis()); // the JVM at rest: what it spends without a request, measured, not awaited
        Usage restEnd = Usage.of(new long[] {app.pid()});
        AtRate load = atRate(path, app, rate, operation);
        double restPerSecond = (restEnd.cpu()[0] - restStart.cpu()[0]) / ((restEnd.at() - restStart.at()) / 1e9);
        double restPerRequest = restPerSecond * load.seconds() * 1e6 / Math.max(1, load.result().completed());
        return new double[] {load.cpu(), load.cpu() - restPerRequest};
    }

    private static long[] round(double[] values) {
        return Arrays.stream(values).mapToLong(Math::round).toArray();
    }

    /**
     * Freshness of the hand-written path (NaiveFreshness) at the rate of the last freshness phase, with Cabinet's
     * instances idle as the baseline was during Cabinet's: the floor of this machine's broker, store and cores.
     */
    private void naiveFreshness(Http plain, AppProcess baseline, RawStore raw) throws Exception {
        if (lastFreshness == null) {
            report.note("freshness of the hand-written path: not measured (it runs at the rate of the freshness phase,"
                    + " which did not run)");
            return;
        }
        Load.constantRate("warm-up: baseline POST /watched-posts", lastFreshness.rate(), warm(10), 256, sequence -> plain
                .send("POST", "/watched-posts", "", Map.of("title", "Warm " + sequence, "body", BODY), 202));
        double before = Cpu.seconds(baseline.pid());
        NaiveFreshness.Result hand = new NaiveFreshness(raw, NAIVE_TABLE, WATCH_EVERY, LOOK_LIMIT)
                .measure(plain, lastFreshness.rate(), PHASE, BODY);
        double cpu = (Cpu.seconds(baseline.pid()) - before) * 1e6 / Math.max(1, hand.accepted());
        report.bound("baselines", String.format("freshness: 202 until visible at %.0f/s, p50, vs the hand-written path "
                + "(one record, one unconditional PutItem; %d sent, %d not seen in 15 s)", lastFreshness.rate(),
                hand.accepted(), hand.missed()), lastFreshness.p50(), hand.p50Millis(), "ms", "reference", true);
        report.bound("baselines", String.format("freshness: the same, p99 (max %.0f vs %.0f ms)", lastFreshness.max(),
                hand.maxMillis()), lastFreshness.p99(), hand.p99Millis(), "ms", "reference", true);
        report.note(String.format("freshness of the hand-written path: the baseline's JVM (its endpoint and its naive "
                + "projector) spent %.0f µs of CPU per post; the watcher looked %d times", cpu, hand.looks()));
    }

    /**
     * Throughput at equal concurrency (measured by the caller), then both at the same constant rate (half the lower
     * throughput): p99 and max, and the serving JVM's CPU per request over that phase, from /proc.
     */
    private void againstBaseline(String path, AppProcess api, AppProcess baseline, Load.Result cabinet, Load.Result hand,
            Load.Operation onCabinet, Load.Operation onBaseline) {
        report.ratio("baselines", String.format("%s: per second at %d concurrent callers vs the hand-written endpoint "
                + "(p99 %.2f vs %.2f ms)", path, CONCURRENCY, cabinet.p99Millis(), hand.p99Millis()), cabinet.perSecond(),
                hand.perSecond(), "/s", 0.8);
        double rate = Math.min(cabinet.perSecond(), hand.perSecond()) / 2;
        AtRate ours = atRate(path, api, rate, onCabinet);
        AtRate theirs = atRate(path + " (baseline)", baseline, rate, onBaseline);
        report.bound("baselines", String.format("%s: p99 at %.0f/s (p50 %.2f vs %.2f ms; max %.1f vs %.1f ms)", path, rate,
                ours.result().p50Millis(), theirs.result().p50Millis(), ours.result().maxMillis(),
                theirs.result().maxMillis()), ours.result().p99Millis(), theirs.result().p99Millis(), "ms", "reference",
                true);
        report.bound("baselines", String.format("%s: CPU µs per request of the serving JVM at %.0f/s (/proc)", path, rate),
                ours.cpu(), theirs.cpu(), "µs", String.format("≤ 1.3× (%.2f×)", ours.cpu() / theirs.cpu()),
                ours.cpu() <= 1.3 * theirs.cpu());
        // Both JVMs compile what the phase runs for the first time while it runs, each at its own pace: without the
        // compiler threads, the figure is the code's cost per request once compiled.
        report.bound("baselines", String.format("%s: the same without the JIT compiler threads (JIT %.0f vs %.0f µs)", path,
                ours.jit(), theirs.jit()), ours.cpu() - ours.jit(), theirs.cpu() - theirs.jit(), "µs",
                String.format("reference (%.2f×)", (ours.cpu() - ours.jit()) / (theirs.cpu() - theirs.jit())), true);
    }

    /**
     * The naive projector (one unconditional PutItem per event) replaying the whole log from its start into a table of
     * its own, sampled every 100 ms from the first event it wrote until nothing changed for two seconds; compared with
     * Cabinet's projector draining a backlog and with the rebuild (which replays the same log, fewer events).
     */
    private void naiveProjection(Http plain, AppProcess baseline) throws Exception {
        plain.send("POST", "/naive/start", "", Map.of(), 204).join();
        long firstAt = 0;
        long lastChangeAt = 0;
        double firstCpu = 0;
        double lastChangeCpu = 0;
        long first = 0;
        long last = 0;
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        while (System.nanoTime() < deadline) {
            long at = System.nanoTime();
            double cpu = Cpu.seconds(baseline.pid());
            JsonNode now = plain.get("/naive/applied", "", 200).join();
            // a failed write is progress too: a projector whose every write fails must not be waited for 20 minutes
            long applied = now.get("applied").asLong() + now.get("failed").asLong();
            if (applied > 0 && first == 0) {
                first = applied;
                firstAt = at;
                firstCpu = cpu;
            }
            if (applied != last) {
                last = applied;
                lastChangeAt = at;
                lastChangeCpu = cpu;
            } else if (applied > 0 && at - lastChangeAt > Duration.ofSeconds(2).toNanos()) {
                break;
            }
            Thread.sleep(100);
        }
        JsonNode counts = plain.get("/naive/applied", "", 200).join();
        double naiveRate = (last - first) / ((lastChangeAt - firstAt) / 1e9);
        double naiveCpu = (lastChangeCpu - firstCpu) / Math.max(1, last - first);
        report.note(String.format("naive projector: %d events written (%d writes failed), %.0f events/s from its first "
                + "write to its last, %.2f ms of its CPU per event (/proc)", counts.get("applied").asLong(),
                counts.get("failed").asLong(), naiveRate, naiveCpu * 1e3));
        if (!Double.isNaN(projectionRate)) {
            report.ratio("baselines", "projection: events applied per second draining a backlog vs the naive projector "
                    + "(one unconditional PutItem per event) replaying the log" + projectionModel(), projectionRate,
                    naiveRate, "/s", 0.5);
        }
        if (!Double.isNaN(rebuildRate)) {
            report.ratio("baselines", "rebuild: events applied per second replaying the log vs the naive projector",
                    rebuildRate, naiveRate, "/s", 0.5);
        }
        cpuAgainstNaive("projection: CPU ms per event applied draining a backlog", projectionCpu, naiveCpu);
        cpuAgainstNaive("rebuild: CPU ms per event applied replaying the log", rebuildCpu, naiveCpu);
    }

    /** What the guarantees cost in CPU, whatever else shares the cores: a reference, the issue sets no target. */
    private void cpuAgainstNaive(String measure, double cpuPerEvent, double naiveCpuPerEvent) {
        if (!Double.isNaN(cpuPerEvent)) {
            report.bound("baselines", measure + " vs the naive projector (/proc)", cpuPerEvent * 1e3,
                    naiveCpuPerEvent * 1e3, "ms", String.format("reference (%.1f×)", cpuPerEvent / naiveCpuPerEvent),
                    true);
        }
    }

    private static String machine() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        long memory = ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize() / (1024 * 1024);
        return String.format("machine: %d cores, %,d MB memory, %s %s, JDK %s (%s); phases of %d s, %d concurrent "
                + "callers", os.getAvailableProcessors(), memory, os.getName(), os.getVersion(),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), PHASE.toSeconds(), CONCURRENCY);
    }
}
