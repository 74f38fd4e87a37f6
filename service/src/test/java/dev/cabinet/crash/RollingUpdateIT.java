package dev.cabinet.crash;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;

/**
 * A rolling update of the API as Kubernetes runs it, against the packaged application in the prod profile (an API and
 * a projector instance, processes of their own): a fault schedule of its own beside CrashIT (benchmark/crash), since
 * its half minute of load kept ./mvnw verify past its eight minutes inside ProductionModeIT.
 */
class RollingUpdateIT {

    /** An API instance's settings: it stops as a pod does in a rolling update. */
    private static final Map<String, String> API = Map.of("cabinet.role", "api", "quarkus.shutdown.delay", "2s");
    private static ProcessHarness harness;
    private static final List<AppProcess> apps = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        harness = new ProcessHarness("rolling-update-it");
        AppProcess api = harness.app("api", API);
        AppProcess projector = harness.app("projector", Map.of("cabinet.role", "projector"));
        apps.addAll(List.of(api, projector));
        AppProcess.startTogether(api, projector);
    }

    /** Stops everything; no instance may have logged an error of a Kafka client, its stop included. */
    @AfterAll
    static void stop() throws Exception {
        if (harness != null) {
            harness.close();
        }
        List<String> errors = new ArrayList<>();
        for (AppProcess app : apps) {
            errors.addAll(app.kafkaClientErrors());
        }
        assertEquals(List.of(), errors, "Kafka clients logged errors");
    }

    /**
     * The new instance gets ready, then the old one gets SIGTERM. Its readiness drops at once while it keeps serving
     * for {@code quarkus.shutdown.delay}; the router (here the test, probing readiness every 100 ms as a Service's
     * endpoints follow the pods') stops sending it requests; the requests it holds finish within
     * {@code quarkus.shutdown.timeout}. No request goes unanswered or answers 5xx, and every acknowledged command is
     * applied.
     */
    @Test
    void aRollingUpdateOfTheApiLosesNoRequestAndNoAcknowledgedCommand() throws Exception {
        AppProcess old = apps.get(0);
        Map<AppProcess, CrashClient> clients = new ConcurrentHashMap<>(Map.of(old, harness.client(old)));
        List<AppProcess> endpoints = new CopyOnWriteArrayList<>(List.of(old));
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        AtomicBoolean sawOldUnready = new AtomicBoolean();
        AtomicBoolean loading = new AtomicBoolean(true);
        ExecutorService load = Executors.newFixedThreadPool(5);
        CrashClient reader;
        try {
            for (int i = 0; i < 3; i++) {
                load.submit(() -> {
                    while (loading.get()) {
                        List<AppProcess> ready = List.copyOf(endpoints);
                        AppProcess target = ready.get(ThreadLocalRandom.current().nextInt(ready.size()));
                        String id = "u" + Ids.newId();
                        answers.put(id, clients.get(target).send("PUT", "/users/" + id, id,
                                Map.of("name", "Rolling " + id, "email", id + "@example.com")).status());
                        // A steady load (about 50 commands a second from three clients), not a saturating one: every
                        // command is read back afterwards, and the two cores also start the new instance meanwhile.
                        Thread.sleep(50);
                    }
                    return null;
                });
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> answers.size() > 50);
            AppProcess fresh = harness.app("api-new", API);
            fresh.start();
            apps.add(fresh);
            reader = harness.client(fresh);
            clients.put(fresh, reader);
            endpoints.add(fresh);
            // The endpoints controller: an instance is routed to while its readiness answers 200.
            load.submit(() -> {
                while (loading.get()) {
                    int status = old.readinessStatus();
                    if (status != 200 && endpoints.remove(old) && status != -1) {
                        sawOldUnready.set(true);
                    }
                    Thread.sleep(100); // the probe's period
                }
                return null;
            });
            int before = answers.size();
            assertTrue(old.stopGracefully(Duration.ofSeconds(45)), "the old instance stops within the grace period");
            await().atMost(Duration.ofSeconds(30)).until(() -> answers.size() > before + 50);
        } finally {
            loading.set(false);
            load.shutdown();
            assertTrue(load.awaitTermination(60, TimeUnit.SECONDS));
        }
        assertTrue(sawOldUnready.get(), "the old instance answered readiness DOWN while it still served");
        Map<Integer, Long> byStatus = answers.values().stream()
                .collect(Collectors.groupingBy(status -> status, TreeMap::new, Collectors.counting()));
        assertEquals(Map.of(202, (long) answers.size()), byStatus, "every command accepted, none unanswered");
        assertTrue(answers.size() > 150, "a load across the update: " + answers.size() + " commands");
        for (String id : answers.keySet()) {
            await("user " + id).pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(60))
                    .until(() -> reader.send("GET", "/users/" + id, null, null).status() == 200);
        }
    }
}
