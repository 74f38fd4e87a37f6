package dev.cabinet.auth;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
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

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.CrashClient;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.devservices.launcher.FreePorts;
import dev.cabinet.shared.Ids;

/**
 * The packaged application in the prod profile as it is deployed: an API instance ({@code cabinet.role=api}), a
 * projector instance ({@code cabinet.role=projector}) and an operator instance ({@code cabinet.role=operator}),
 * processes of their own against a broker and dynalite of their
 * own, the identity provider's key given by file. No development endpoint; tokens verified as configured; each role
 * serves only its part; and an API whose broker never answers refuses commands with 503 outcome-unknown.
 */
class ProductionModeIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ProcessHarness harness;
    private static AppProcess api;
    private static AppProcess projector;
    private static AppProcess operator;
    private static CrashClient client;

    @BeforeAll
    static void start() throws Exception {
        harness = new ProcessHarness("production-mode-it");
        // Each started before the next is made: a port is chosen free when the process is made, and a port chosen for
        // a process not yet listening could be chosen again.
        api = harness.app("api", Map.of("cabinet.role", "api"), ProcessHarness.TEST_JVM);
        api.start();
        projector = harness.app("projector", Map.of("cabinet.role", "projector"), ProcessHarness.TEST_JVM);
        projector.start();
        operator = harness.app("operator", Map.of("cabinet.role", "operator"), ProcessHarness.TEST_JVM);
        operator.start();
        client = harness.client(api);
    }

    @AfterAll
    static void stop() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void theDevelopmentTokenEndpointDoesNotExist() {
        assertEquals(404, client.send("POST", "/dev/tokens", null, Map.of("sub", "anyone")).status());
    }

    @Test
    void aTokenFromTheConfiguredIssuerIsAcceptedAndItsSubjectActs() {
        String id = "u" + Ids.newId();
        assertEquals(202, client.send("PUT", "/users/" + id, id, Map.of("name", "Prod", "email", "prod@example.com"))
                .status());
        await().atMost(Duration.ofSeconds(30)).until(() -> "Prod".equals(client.send("GET", "/users/" + id, null, null)
                .body().path("name").asText()));
    }

    @Test
    void tokensThatAreExpiredForeignOrForAnotherAudienceAreUnauthorized() throws Exception {
        String id = "u" + Ids.newId();
        assertUnauthorized(id, client.sign(CrashClient.claims(id).expiresAt(Instant.now().minusSeconds(600))));
        assertUnauthorized(id, client.sign(CrashClient.claims(id).issuer("https://someone-else.test")));
        assertUnauthorized(id, client.sign(CrashClient.claims(id).audience("another-service")));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        assertUnauthorized(id, CrashClient.claims(id).sign(generator.generateKeyPair().getPrivate()));
    }

    /**
     * The projector's consumer group holds the projector's three channel copies and nothing of the API's (their static
     * member names are the process names); the API never creates what applying events needs (the event applier and its
     * contract, whose meters say whether it exists), the projector creates it at boot; the projector answers the API's
     * paths 404 and keeps health and metrics for the probes.
     */
    @Test
    void anApiInstanceServesWithoutConsumingAndAProjectorConsumesAndServesOnlyHealthAndMetrics() throws Exception {
        await("the projector's consumers in the group").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<String> members = groupMembers("cabinet-projector");
            assertEquals(3, members.size(), "members: " + members);
            assertTrue(members.stream().allMatch(member -> member.startsWith("projector-events-")), "members: "
                    + members);
        });
        assertFalse(get(api, "/q/metrics").contains("cabinet_projection_applications"),
                "the API created the event applier");
        assertTrue(get(projector, "/q/metrics").contains("cabinet_projection_applications"),
                "the projector did not create the event applier at boot");

        CrashClient projectorClient = harness.client(projector);
        CrashClient.Answer api = projectorClient.send("GET", "/users/anyone", null, null);
        assertEquals(404, api.status());
        assertTrue(api.body().path("detail").asText().contains("projector only"), "answered " + api.body());
        assertEquals(200, projector.readinessStatus());
    }

    /**
     * The operators' endpoints are served by operator instances only, whose pods carry the operator's policy (scans,
     * batch writes); the public API answers them 404 and the operator instance answers the public API 404, each saying
     * where the other is served. An operator instance never joins the projector's group.
     */
    @Test
    void theOperatorsEndpointsAreServedByOperatorInstancesOnly() throws Exception {
        CrashClient.Answer onApi = client.asOperator("GET", "/admin/parked-keys");
        assertEquals(404, onApi.status(), "answered " + onApi.body());
        assertTrue(onApi.body().path("detail").asText().contains("cabinet-operator"), "answered " + onApi.body());

        CrashClient operatorClient = harness.client(operator);
        CrashClient.Answer parked = operatorClient.asOperator("GET", "/admin/parked-keys");
        assertEquals(200, parked.status(), "answered " + parked.body());
        CrashClient.Answer publicApi = operatorClient.send("GET", "/users/anyone", null, null);
        assertEquals(404, publicApi.status());
        assertTrue(publicApi.body().path("detail").asText().contains("operators' endpoints only"),
                "answered " + publicApi.body());
        assertEquals(200, operator.readinessStatus());
        assertTrue(groupMembers("cabinet-projector").stream().noneMatch(member -> member.startsWith("operator")));
    }

    /**
     * A rolling update of the API as Kubernetes runs it: the new instance gets ready, then the old one gets SIGTERM.
     * Its readiness drops at once while it keeps serving for {@code quarkus.shutdown.delay}; the router (here the
     * test, probing readiness every 100 ms as a Service's endpoints follow the pods') stops sending it requests; the
     * requests it holds finish within {@code quarkus.shutdown.timeout}. No request goes unanswered or answers 5xx, and
     * every acknowledged command is applied.
     */
    @Test
    void aRollingUpdateOfTheApiLosesNoRequestAndNoAcknowledgedCommand() throws Exception {
        Map<String, String> settings = Map.of("cabinet.role", "api", "quarkus.shutdown.delay", "2s");
        AppProcess old = harness.app("api-old", settings, ProcessHarness.TEST_JVM);
        old.start();
        Map<AppProcess, CrashClient> clients = new ConcurrentHashMap<>(Map.of(old, harness.client(old)));
        List<AppProcess> endpoints = new CopyOnWriteArrayList<>(List.of(old));
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        AtomicBoolean sawOldUnready = new AtomicBoolean();
        AtomicBoolean loading = new AtomicBoolean(true);
        ExecutorService load = Executors.newFixedThreadPool(5);
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
            AppProcess fresh = harness.app("api-new", settings, ProcessHarness.TEST_JVM);
            fresh.start();
            clients.put(fresh, harness.client(fresh));
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
        CrashClient reader = harness.client(api);
        for (String id : answers.keySet()) {
            await("user " + id).pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(60))
                    .until(() -> reader.send("GET", "/users/" + id, null, null).status() == 200);
        }
    }

    /** An API whose broker never answers (a port nobody listens on) refuses a command: never a 202. */
    @Test
    void aCommandTheLogDoesNotAcknowledgeIsA503WithAnUnknownOutcomeNeverA202() throws Exception {
        AppProcess silent = harness.app("api-without-broker", Map.of("cabinet.role", "api",
                "kafka.bootstrap.servers", "127.0.0.1:" + FreePorts.pick(),
                "mp.messaging.outgoing.events-out.max.block.ms", "2000"), ProcessHarness.TEST_JVM);
        silent.start("/q/health/live");
        try {
            String id = "u" + Ids.newId();
            CrashClient.Answer answer = harness.client(silent).send("PUT", "/users/" + id, id,
                    Map.of("name", "Nobody", "email", "nobody@example.com"));
            assertEquals(503, answer.status(), "answered " + answer.body());
            assertEquals("urn:cabinet:problem:outcome-unknown", answer.body().path("type").asText());
            assertTrue(Ids.isValid(answer.body().path("eventId").asText()), "answered " + answer.body());
        } finally {
            silent.close();
        }
    }

    private static void assertUnauthorized(String id, String token) {
        CrashClient.Answer answer = client.sendWithToken("PUT", "/users/" + id, token,
                Map.of("name", "X", "email", "x@example.com"));
        assertEquals(401, answer.status(), "answered " + answer.body());
        assertEquals("urn:cabinet:problem:unauthorized", answer.body().path("type").asText(), "a problem: "
                + answer.body());
    }

    /** The static member names (group.instance.id) of the group's members. */
    private static List<String> groupMembers(String group) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                harness.broker.bootstrapServers()))) {
            return admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get(10, TimeUnit.SECONDS)
                    .members().stream().map(MemberDescription::groupInstanceId)
                    .map(instance -> instance.orElse("(dynamic)")).sorted().toList();
        }
    }

    private static String get(AppProcess app, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(app.uri(path)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path);
        return response.body();
    }
}
