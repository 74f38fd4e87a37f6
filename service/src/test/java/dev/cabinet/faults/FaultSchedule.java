package dev.cabinet.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.CrashClient;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.support.Freezer;
import dev.cabinet.shared.Ids;

/**
 * The fault schedule of issue 20: the packaged application as deployed (an API instance and a projector instance)
 * against a broker and a dynalite of its own, under a randomized workload from eight clients, while the store and the
 * broker are frozen (SIGSTOP/SIGCONT) for each outage length, several times, and the projector is killed (SIGKILL) and
 * restarted. Afterwards the read model must match what was acknowledged exactly (an outcome-unknown resolved through
 * GET /commands/{eventId}), and every answer must have come within the answer deadline. It prints the outage figures
 * and writes them to {@code service/target/faults/report.md}. Not part of {@code ./mvnw verify}: run it with
 * {@code benchmark/faults} (see docs/faults.md).
 * <ul>
 * <li>{@code cabinet.faults.outages}: the outage lengths, comma-separated ISO-8601 seconds (default {@code 5,15,30,60});
 * <li>{@code cabinet.faults.trials}: how often each length is repeated for the store and for the broker (default 2);
 * <li>{@code cabinet.faults.kinds}: what is frozen, {@code store}, {@code broker} or both (default {@code store,broker});
 * <li>{@code cabinet.faults.kills}: how often each kill is made (default 2): the projector's under load, the projector's
 * while the store is frozen, the projector's while a rename fans out, and the API's while commands are in flight;
 * <li>{@code cabinet.faults.seeds}: the workload's seeds, comma-separated, {@code random} for one drawn now (default
 * {@code random}); each seed runs the whole schedule against fresh processes ({@code cabinet.faults.seed} also names
 * one);
 * <li>{@code cabinet.faults.hold-on-mismatch}: seconds to keep every process up when the read model differs (debugging).
 * </ul>
 */
class FaultSchedule {

    private static final List<Duration> OUTAGES = Arrays.stream(System.getProperty("cabinet.faults.outages",
            "5,15,30,60").split(",")).map(s -> Duration.ofSeconds(Long.parseLong(s.trim()))).toList();
    private static final int TRIALS = Integer.getInteger("cabinet.faults.trials", 2);
    private static final List<String> KINDS = Arrays.stream(System.getProperty("cabinet.faults.kinds", "store,broker")
            .split(",")).map(String::trim).toList();
    private static final int KILLS = Integer.getInteger("cabinet.faults.kills", 2);
    /** Comments the owner writes on a post of its own: copies of its name that a rename fans out to. */
    private static final int FAN_OUT_COMMENTS = 40;
    private static final Path REPORT = Path.of("target", "faults", "report.md");
    /**
     * No answer may take longer than this (issue 20, item 4): the application's request deadline
     * ({@code cabinet.http.deadline}, 5 s by default; the workload sends no Prefer: wait or Consistency-Token, which
     * would come on top) and a second for what the client sees around it (connection, queueing on a loaded machine).
     */
    private static final Duration ANSWER_DEADLINE = Duration.ofSeconds(5).plusSeconds(1);
    /** Normal running between two faults. */
    private static final Duration CALM = Duration.ofSeconds(4);
    private static final int CLIENTS = 8;
    private static final int SEEDED_POSTS = 6;
    private static final int GROUPS = 4;

    /** One fault: its kind, when it began and ended (resume, or restart), and when a new command was visible again. */
    private record Fault(String kind, Duration length, long startNanos, long endNanos, long visibleNanos) {
        long recoveryMillis() {
            return (visibleNanos - endNanos) / 1_000_000;
        }
    }

    private static final String API_KILL = "api-kill";

    private final List<String> report = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    /** The projector process, whose meters and threads are kept when a recovery is not seen. */
    private AppProcess projector;
    private AppProcess api;
    /** The owner's name as last acknowledged, and its post whose comments copy the name. */
    private volatile String ownerName;
    private String fanOutPost;

    /** The report holds this run's seeds only. */
    @BeforeAll
    static void newReport() throws Exception {
        Files.createDirectories(REPORT.getParent());
        Files.deleteIfExists(REPORT);
    }

    /** The seeds to run, each drawn now where the list says {@code random}. */
    static List<Long> seeds() {
        String seeds = System.getProperty("cabinet.faults.seeds", System.getProperty("cabinet.faults.seed", "random"));
        return Arrays.stream(seeds.split(",")).map(String::trim)
                .map(seed -> seed.equals("random") ? System.nanoTime() : Long.parseLong(seed)).toList();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theReadModelMatchesWhatWasAcknowledgedAndEveryAnswerCameInTimeThroughOutagesAndKills(long seed)
            throws Exception {
        log("# Fault schedule");
        log("");
        log("seed " + seed + "; outages " + OUTAGES.stream().map(d -> d.toSeconds() + " s").toList() + " x " + TRIALS
                + " trials each, for the store and for the broker; " + KILLS + " of each kill (the projector under load, in a "
                + "store outage and in a fan-out; the API with commands in flight); " + CLIENTS
                + " clients");
        try (ProcessHarness harness = new ProcessHarness("faults")) {
            List<String> jvm = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1");
            AppProcess api = harness.app("api", Map.of("cabinet.role", "api"), jvm);
            AppProcess projector = harness.app("projector", Map.of("cabinet.role", "projector"), jvm);
            this.projector = projector;
            this.api = api;
            api.start();
            projector.start();
            CrashClient client = harness.client(api);
            Calls calls = new Calls(api::uri, client);

            String owner = "u" + Ids.newId();
            String probe = "u" + Ids.newId();
            client.applied("PUT", "/users/" + owner, owner, Map.of("name", "Owner", "email", owner + "@example.com"));
            client.applied("PUT", "/users/" + probe, probe, Map.of("name", "Probe", "email", probe + "@example.com"));
            List<String> posts = new ArrayList<>();
            for (int i = 0; i < SEEDED_POSTS; i++) {
                posts.add(client.applied("POST", "/posts", owner, Map.of("title", "Seed", "body", "Seed")).get("id")
                        .asText());
            }
            List<String> groups = new ArrayList<>();
            for (int i = 0; i < GROUPS; i++) {
                groups.add(client.applied("POST", "/groups", owner, Map.of("name", "Group " + i)).get("id").asText());
            }
            ownerName = "Owner";
            fanOutPost = client.applied("POST", "/posts", owner, Map.of("title", "Fan-out", "body", "Copies"))
                    .get("id").asText();
            for (int i = 0; i < FAN_OUT_COMMENTS; i++) {
                assertTrue(client.send("POST", "/posts/" + fanOutPost + "/comments", owner, Map.of("text", "Copy " + i))
                        .accepted(), "the owner's comment " + i);
            }
            await("the owner's comments").atMost(Duration.ofSeconds(60)).until(() -> client.get("/posts/" + fanOutPost)
                    .path("commentCount").asInt() == FAN_OUT_COMMENTS);
            List<Workload.Ledger> ledgers = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                String user = "u" + Ids.newId();
                client.applied("PUT", "/users/" + user, user, Map.of("name", "Client " + i, "email",
                        user + "@example.com"));
                ledgers.add(new Workload.Ledger(user, "Client " + i));
            }

            Workload workload = new Workload(calls, new LogLookup(harness.broker.bootstrapServers()), posts, groups,
                    ledgers);
            long started = System.nanoTime();
            workload.start(seed);
            SplittableRandom random = new SplittableRandom(seed);
            List<Runnable> schedule = new ArrayList<>();
            for (int trial = 0; trial < TRIALS; trial++) {
                for (Duration outage : OUTAGES) {
                    if (KINDS.contains("store")) {
                        schedule.add(() -> outage("store", outage, Freezer::store, calls, probe));
                    }
                    if (KINDS.contains("broker")) {
                        schedule.add(() -> outage("broker", outage, Freezer::broker, calls, probe));
                    }
                }
            }
            for (int kill = 0; kill < KILLS; kill++) {
                schedule.add(() -> kill(projector, calls, probe));
                schedule.add(() -> killInStoreOutage(projector, calls, probe));
                schedule.add(() -> killInFanOut(projector, client, calls, probe, owner));
                schedule.add(() -> killApiWithCommandsInFlight(api, calls, probe));
            }
            // A random order, so that a fault also finds the aftermath of another one.
            for (int i = schedule.size() - 1; i > 0; i--) {
                java.util.Collections.swap(schedule, i, random.nextInt(i + 1));
            }
            for (Runnable fault : schedule) {
                calm();
                fault.run();
            }
            calm();
            workload.stop();
            long ran = (System.nanoTime() - started) / 1_000_000_000;

            List<String> mismatches = new ArrayList<>();
            long unresolved = ledgers.stream().mapToLong(l -> l.unresolved.get()).sum();
            try {
                // One comparison reads every list and every post: thousands of requests after a long schedule. With an
                // outcome left unknown the ledger is not exact, and waiting for it to match would only take time.
                await("the read model matches the ledgers").atMost(Duration.ofSeconds(unresolved > 0 ? 1 : 300))
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofSeconds(2)).until(() -> {
                            mismatches.clear();
                            mismatches.addAll(workload.mismatches(calls, new Workload.Owner(owner, ownerName,
                                    fanOutPost, FAN_OUT_COMMENTS)));
                            return mismatches.isEmpty();
                        });
            } catch (ConditionTimeoutException e) {
                // The figures are printed all the same, then the assertion below names the differences (if the last
                // comparison, finished after the limit, still found any).
            }
            figures(calls, workload, ran, mismatches);
            long hold = Long.getLong("cabinet.faults.hold-on-mismatch", 0);
            if (!mismatches.isEmpty() && hold > 0) {
                // A debugging aid: the broker, the store and both instances stay up to be looked at.
                System.out.println("  (read model differs: holding everything for " + hold + " s; see target/faults)");
                TimeUnit.SECONDS.sleep(hold);
            }
            assertEquals(0, unresolved, "commands whose outcome stayed unknown (the ledger is not exact)");
            assertEquals(List.of(), mismatches, "the read model differs from what was acknowledged");
            // A call the killed API instance never answered is no late answer: its client sent it again (same key).
            long late = count(calls, call -> (call.millis() > ANSWER_DEADLINE.toMillis() || call.status() == -1)
                    && !(call.status() == -1 && window(call).equals(API_KILL)));
            assertEquals(0, late, "answers later than " + ANSWER_DEADLINE.toMillis() + " ms (or none at all)");
            assertTrue(count(calls, call -> call.status() >= 500 && call.status() != 503) == 0,
                    "a 5xx other than 503 was answered");
        } finally {
            Files.createDirectories(REPORT.getParent());
            Files.write(REPORT, report, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    /** Freezes the store or the broker for {@code length}, then measures how soon a new command is visible. */
    private void outage(String kind, Duration length, java.util.function.Supplier<Freezer> freeze, Calls calls,
            String probe) {
        long start = System.nanoTime();
        long end;
        try (Freezer frozen = freeze.get()) {
            sleepUntil(start + length.toNanos());
            frozen.thaw();
            end = System.nanoTime();
        }
        Fault fault = new Fault(kind, length, start, end, visibleAgain(calls, probe));
        faults.add(fault);
        log(String.format("- %s frozen %d s: a new command visible %d ms after it resumed", kind, length.toSeconds(),
                fault.recoveryMillis()));
    }

    /** SIGKILL of the projector under load, restarted at once; measures how soon a new command is visible. */
    private void kill(AppProcess projector, Calls calls, String probe) {
        long start = System.nanoTime();
        try {
            projector.kill();
            projector.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        long ready = System.nanoTime();
        Fault fault = new Fault("projector-kill", Duration.ZERO, start, ready, visibleAgain(calls, probe));
        faults.add(fault);
        log(String.format("- projector killed (SIGKILL) and restarted: ready after %d ms, a new command visible %d ms "
                + "after that", (ready - start) / 1_000_000, fault.recoveryMillis()));
    }

    /**
     * The projector killed while the store is frozen (it may have been in the middle of a write), restarted as
     * Kubernetes would restart it: again whenever it exits, until it is ready; the store thaws after 3 s.
     */
    private void killInStoreOutage(AppProcess projector, Calls calls, String probe) {
        long start = System.nanoTime();
        int starts;
        try (Freezer frozen = Freezer.store()) {
            sleepUntil(start + Duration.ofSeconds(1).toNanos());
            projector.kill();
            CompletableFuture<Integer> restarted = CompletableFuture.supplyAsync(() -> startUntilReady(projector));
            sleepUntil(start + Duration.ofSeconds(3).toNanos());
            frozen.thaw();
            starts = restarted.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        long ready = System.nanoTime();
        Fault fault = new Fault("projector-kill-in-store-outage", Duration.ofSeconds(3), start, ready,
                visibleAgain(calls, probe));
        faults.add(fault);
        log(String.format("- projector killed (SIGKILL) 1 s into a 3 s store freeze: ready after %d ms (%d start%s), "
                + "a new command visible %d ms after that", (ready - start) / 1_000_000, starts, starts == 1 ? "" : "s",
                fault.recoveryMillis()));
    }

    /**
     * The owner renames itself (its name is copied onto its posts, memberships and the comments of its fan-out post)
     * and the projector is killed as soon as the rename is accepted, while its copies fan out; restarted at once.
     */
    private void killInFanOut(AppProcess projector, CrashClient client, Calls calls, String probe, String owner) {
        String name = "Owner " + Ids.newId().substring(18);
        long start = System.nanoTime();
        try {
            CrashClient.Answer renamed = client.send("PATCH", "/users/" + owner, owner, Map.of("name", name));
            assertTrue(renamed.accepted(), "the owner's rename: " + renamed.status());
            ownerName = name;
            long copies = await("the fan-out begun").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                    .until(() -> renamedCopies(client, name), n -> n > 0);
            projector.kill();
            log(String.format("  (the projector was killed with %d of the fan-out post's %d comment copies renamed)",
                    copies, FAN_OUT_COMMENTS));
            projector.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        long ready = System.nanoTime();
        Fault fault = new Fault("projector-kill-in-fan-out", Duration.ZERO, start, ready, visibleAgain(calls, probe));
        faults.add(fault);
        log(String.format("- projector killed (SIGKILL) while a rename fanned out: ready after %d ms, a new command "
                + "visible %d ms after that", (ready - start) / 1_000_000, fault.recoveryMillis()));
    }

    /** How many of the owner's comment copies carry {@code name} already (the first page of 100 holds all 40). */
    private long renamedCopies(CrashClient client, String name) {
        long n = 0;
        for (com.fasterxml.jackson.databind.JsonNode item : client.get("/posts/" + fanOutPost + "/comments?limit=100")
                .path("items")) {
            n += name.equals(item.path("authorName").asText()) ? 1 : 0;
        }
        return n;
    }

    /**
     * The API instance killed with commands in flight: the broker is frozen first, so the commands sent meanwhile
     * have reserved their Idempotency-Keys and wait for the log's acknowledgement (some of their records may reach the
     * broker and be written when it thaws); then SIGKILL, the broker thaws, and the API restarts. Their clients get no
     * answer and send them again with the same keys (see Workload).
     */
    private void killApiWithCommandsInFlight(AppProcess api, Calls calls, String probe) {
        long start = System.nanoTime();
        try (Freezer frozen = Freezer.broker()) {
            sleepUntil(start + Duration.ofSeconds(2).toNanos());
            api.kill();
            frozen.thaw();
            api.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        long ready = System.nanoTime();
        Fault fault = new Fault(API_KILL, Duration.ZERO, start, ready, visibleAgain(calls, probe));
        faults.add(fault);
        log(String.format("- API killed (SIGKILL) with commands in flight (the broker frozen 2 s first): ready after "
                + "%d ms, a new command visible %d ms after that", (ready - start) / 1_000_000,
                fault.recoveryMillis()));
    }

    /** Starts the application again whenever it exits before it is ready (a pod's restarts); answers the starts made. */
    private static int startUntilReady(AppProcess app) {
        for (int starts = 1;; starts++) {
            try {
                app.start();
                return starts;
            } catch (IllegalStateException | org.awaitility.core.ConditionTimeoutException e) {
                if (starts >= 10) {
                    throw e;
                }
                System.out.println("  (start " + starts + " did not get ready: " + e.getMessage() + ")");
            }
        }
    }

    /**
     * The probe user renames themself (retrying while refused) and reads their profile until the new name shows: the
     * moment a command sent after the outage is visible.
     */
    private long visibleAgain(Calls calls, String probe) {
        String name = "Probe " + Ids.newId().substring(0, 8);
        long from = System.nanoTime();
        try {
            long accepted = awaitVisible(calls, probe, name);
            System.out.printf("  (the probe's rename was accepted %d ms after it was first sent)%n",
                    (accepted - from) / 1_000_000);
        } catch (ConditionTimeoutException e) {
            System.out.println("  (the probe's rename was not visible within 2 minutes: " + e.getMessage() + ")");
            keepStallEvidence();
        }
        return System.nanoTime();
    }

    /**
     * The projector's own meters (where its batches and store calls stand) and a thread dump, in target/faults: what
     * a stall is waiting for.
     */
    private void keepStallEvidence() {
        Path dir = Path.of("target", "faults");
        String at = String.valueOf(System.currentTimeMillis());
        try {
            Files.createDirectories(dir);
            HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    projector.uri("/q/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Files.writeString(dir.resolve("stall-" + at + "-metrics.txt"), metrics.body());
            Process dump = new ProcessBuilder("jcmd", String.valueOf(projector.pid()), "Thread.print")
                    .redirectOutput(dir.resolve("stall-" + at + "-threads.txt").toFile()).start();
            dump.waitFor(30, TimeUnit.SECONDS);
            System.out.println("  (the projector's meters and threads: target/faults/stall-" + at + "-*.txt)");
        } catch (Exception e) {
            System.out.println("  (could not keep the projector's meters and threads: " + e + ")");
        }
    }

    /** Returns when the rename was accepted, which tells what of a recovery the API took and what the projector. */
    private static long awaitVisible(Calls calls, String probe, String name) {
        await("the probe's rename accepted").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
                .until(() -> calls.quiet("PATCH", "/users/" + probe, probe, Map.of("name", name)).status() == 202);
        long accepted = System.nanoTime();
        await("the probe's rename visible").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
                .until(() -> name.equals(calls.quiet("GET", "/users/" + probe, probe, null).body().path("name")
                        .asText()));
        return accepted;
    }

    private void figures(Calls calls, Workload workload, long seconds, List<String> mismatches) {
        log("");
        log("## Outcome");
        log("");
        log(String.format("%d s of load, %d commands acknowledged (outcome-unknown resolved through GET /commands: %s)",
                seconds, workload.acknowledged(), workload.resolutions()));
        log("read model checked against the ledgers of " + CLIENTS + " clients (names, post and comment lists, "
                + "postCount, commentCount, memberCount, members, users' groups, renamed copies in posts, comments and "
                + "member lists): " + (mismatches.isEmpty() ? "exact" : mismatches.size() + " differences, e.g. "
                        + mismatches.subList(0, Math.min(5, mismatches.size()))));
        log("");
        log("## Answers by outage kind");
        log("");
        log("| window | requests | 503 | Retry-After missing on 503 | other 5xx | no answer | longest command | "
                + "longest read |");
        log("|---|---|---|---|---|---|---|---|");
        Map<String, List<Calls.Call>> byWindow = new TreeMap<>();
        for (Calls.Call call : calls.recorded()) {
            byWindow.computeIfAbsent(window(call), w -> new ArrayList<>()).add(call);
        }
        byWindow.forEach((window, list) -> log(String.format("| %s | %d | %d | %d | %d | %d | %d ms | %d ms |", window,
                list.size(), list.stream().filter(c -> c.status() == 503).count(),
                list.stream().filter(c -> c.status() == 503 && c.retryAfter() == null).count(),
                list.stream().filter(c -> c.status() >= 500 && c.status() != 503).count(),
                list.stream().filter(c -> c.status() == -1).count(),
                list.stream().filter(c -> !c.isRead()).mapToLong(Calls.Call::millis).max().orElse(0),
                list.stream().filter(Calls.Call::isRead).mapToLong(Calls.Call::millis).max().orElse(0))));
        Map<String, Long> types = new TreeMap<>();
        calls.recorded().forEach(c -> {
            if (c.status() >= 500) {
                types.merge(c.status() + " " + c.problemType(), 1L, Long::sum);
            }
        });
        log("");
        log("5xx answers by problem type: " + types);
        log("");
        log("## Recovery: from the resume (or the restart) to a new command visible");
        log("");
        log("| fault | outage | trials | p50 | p99 | max |");
        log("|---|---|---|---|---|---|");
        Map<String, List<Long>> recoveries = new TreeMap<>();
        for (Fault fault : faults) {
            recoveries.computeIfAbsent(fault.kind() + "|" + fault.length().toSeconds() + " s", k -> new ArrayList<>())
                    .add(fault.recoveryMillis());
            recoveries.computeIfAbsent(fault.kind() + "|all", k -> new ArrayList<>()).add(fault.recoveryMillis());
        }
        recoveries.forEach((key, values) -> {
            String[] parts = key.split("\\|");
            List<Long> sorted = values.stream().sorted().toList();
            log(String.format("| %s | %s | %d | %d ms | %d ms | %d ms |", parts[0], parts[1], sorted.size(),
                    percentile(sorted, 50), percentile(sorted, 99), sorted.get(sorted.size() - 1)));
        });
        log("");
    }

    /** The fault a call overlapped (from the freeze or kill to a new command visible again), or "no fault". */
    private String window(Calls.Call call) {
        for (Fault fault : faults) {
            if (call.startNanos() < fault.visibleNanos() && call.endNanos() > fault.startNanos()) {
                return fault.kind();
            }
        }
        return "no fault";
    }

    private static long percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static long count(Calls calls, java.util.function.Predicate<Calls.Call> which) {
        long n = 0;
        for (Calls.Call call : calls.recorded()) {
            if (which.test(call)) {
                n++;
            }
        }
        return n;
    }

    /** Normal running between faults: the workload goes on for a few seconds. */
    private static void calm() {
        sleepUntil(System.nanoTime() + CALM.toNanos());
    }

    /** The outage and the calm are the schedule itself, set lengths of time: there is no condition to await. */
    private static void sleepUntil(long nanoTime) {
        try {
            long left = nanoTime - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void log(String line) {
        System.out.println(line);
        report.add(line);
    }
}
