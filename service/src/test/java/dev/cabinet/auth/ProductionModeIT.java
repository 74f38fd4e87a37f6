package dev.cabinet.auth;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.CrashClient;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.deploy.DeployedKafkaUsers;
import dev.cabinet.deploy.KafkaAttempts;
import dev.cabinet.devservices.launcher.FreePorts;
import dev.cabinet.erasure.StubKms;
import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.LogSearches;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.iam.IamRole;
import dev.cabinet.role.Role;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The packaged application in the prod profile as it is deployed: an API instance ({@code cabinet.role=api}), a
 * projector instance ({@code cabinet.role=projector}) and an operator instance ({@code cabinet.role=operator}),
 * processes of their own against a broker and dynalite of their
 * own, the identity provider's key given by file. No development endpoint; tokens verified as configured; each role
 * serves only its part; and an API whose broker never answers refuses commands with 503 outcome-unknown. Every instance
 * is set up as in the middle of a rolling upgrade ({@link #ROLLING_UPGRADE}): people's data keys wrapped by KMS, against
 * a stand-in that speaks KMS's protocol ({@link StubKms}), and {@code cabinet.customer.order-placed} still written as v1
 * for readers not yet upgraded. Each instance reaches Kafka as its pod would, as its role's KafkaUser over TLS, and the
 * broker enforces the users' ACLs ({@link #eachRoleRunsAsItsKafkaUserAndMayDoNothingItIsNotGranted}). (These settings
 * ran in a Quarkus test profile of their own before, whose second build of the application cost {@code verify} about
 * 16 s.)
 */
class ProductionModeIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final StubKms KMS = new StubKms();
    /** KMS wrapping with no key kept in memory (every reading asks KMS to unwrap), and orders written as v1. */
    private static final Map<String, String> ROLLING_UPGRADE = new HashMap<>(Map.of(
            "cabinet.erasure.wrapping", "kms", "cabinet.erasure.kms-key-id", StubKms.KEY_ARN,
            "cabinet.erasure.key-cache", "0s",
            "quarkus.kms.aws.region", "eu-west-1", "quarkus.kms.aws.credentials.type", "static",
            "quarkus.kms.aws.credentials.static-provider.access-key-id", "test",
            "quarkus.kms.aws.credentials.static-provider.secret-access-key", "test",
            "cabinet.events.write-version.\"cabinet.customer.order-placed\"", "1"));
    private static ProcessHarness harness;
    /** The Secrets Strimzi would make for the KafkaUsers: each user's JAAS line, by user name. */
    private static Map<String, String> kafkaSecrets;
    /** An API instance's settings (its rolling update is RollingUpdateIT's, a fault schedule of its own). */
    private static final Map<String, String> API = Map.of("cabinet.role", "api");
    private static AppProcess api;
    /** The instances whose logs must show no error of a Kafka client: each role's. */
    private static final List<AppProcess> checkedLogs = new ArrayList<>();
    private static AppProcess projector;
    private static AppProcess operator;
    private static CrashClient client;

    @BeforeAll
    static void start() throws Exception {
        ROLLING_UPGRADE.putAll(KMS.start());
        harness = ProcessHarness.secured("production-mode-it");
        kafkaSecrets = DeployedKafkaUsers.install(harness.broker.bootstrapServers());
        api = app("api", API);
        checkedLogs.add(api);
        projector = app("projector", Map.of("cabinet.role", "projector"));
        operator = app("operator", Map.of("cabinet.role", "operator"));
        checkedLogs.addAll(List.of(projector, operator));
        AppProcess.startTogether(api, projector, operator);
        client = harness.client(api);
    }

    /**
     * Stops everything, then holds the three instances' logs to no error of a Kafka client, their stop included: a
     * client refused what its user may not do (a producer id for a role that writes nothing) keeps asking, and says
     * so as it closes.
     */
    @AfterAll
    static void stop() throws Exception {
        if (harness != null) {
            harness.close();
        }
        KMS.stop();
        List<String> errors = new ArrayList<>();
        for (AppProcess app : checkedLogs) {
            errors.addAll(app.kafkaClientErrors());
        }
        assertEquals(List.of(), errors, "Kafka clients logged errors");
    }

    /**
     * An instance with these settings, set up as in the middle of a rolling upgrade like every other here, and
     * connected to Kafka as the prod overlay connects its role's pods: the {@code KAFKA_} variables of its Deployment
     * (TLS, SCRAM-SHA-512 as its role's KafkaUser), to the broker's listener that enforces the KafkaUsers' ACLs.
     */
    private static AppProcess app(String name, Map<String, String> settings) throws Exception {
        Map<String, String> all = new HashMap<>(ROLLING_UPGRADE);
        all.putAll(settings);
        String bootstrap = all.getOrDefault("kafka.bootstrap.servers", harness.broker.securedBootstrapServers());
        all.put("kafka.bootstrap.servers", bootstrap);
        Map<String, String> kafka = DeployedKafkaUsers.podEnvironment(Role.parse(all.get("cabinet.role")),
                kafkaSecrets, bootstrap, harness.brokerCertificate());
        return harness.app(name, all, kafka, ProcessHarness.TEST_JVM, Path.of(System.getProperty("java.home")));
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
     * An API instance's readiness does not hang on the event log's producer: reads need only the table, and with the
     * broker out of reach every API pod would otherwise leave its Service at once, reads with them (a command then
     * answers 503 itself). The table stays part of it.
     */
    @Test
    void anApiInstancesReadinessLeavesTheEventLogOut() throws Exception {
        String apiReadiness = get(api, "/q/health/ready");
        assertFalse(apiReadiness.contains("events-out"), apiReadiness);
        assertTrue(apiReadiness.contains("dynamodb-table"), apiReadiness);
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
     * Every instance here runs as its role's KafkaUser (TLS, SCRAM-SHA-512) against a listener that enforces the
     * users' ACLs as the prod overlay renders them, and does its work there: the other tests' commands and projections (the
     * rolling update is RollingUpdateIT's, without ACLs); the file objects' consumers in their group; a record the projector cannot apply, which it
     * dead-letters; the API's search of the log for an event whose send failed (run here with the API's user); a
     * stream the operators' instance rebuilds, reading its key's records by position. What a role is not granted, its
     * credentials cannot do, and a wrong password is refused.
     */
    @Test
    void eachRoleRunsAsItsKafkaUserAndMayDoNothingItIsNotGranted() throws Exception {
        await("the file objects' consumers in their group").atMost(Duration.ofSeconds(30))
                .until(() -> !groupMembers("cabinet-file-objects").isEmpty());

        String poisoned = "u" + Ids.newId();
        ForeignProducer.produceStructured(harness.broker.bootstrapServers(), Topics.USERS, poisoned,
                "[\"not an event\"]");
        await("the projector dead-letters what it cannot apply").atMost(Duration.ofSeconds(30)).until(() ->
                !EventLogReader.recordsWithKey(harness.broker.bootstrapServers(), Topics.DEAD_LETTERS, poisoned)
                        .isEmpty());

        String id = "u" + Ids.newId();
        assertEquals(202, client.send("PUT", "/users/" + id, id, Map.of("name", "Kept", "email", "kept@example.com"))
                .status());
        await().atMost(Duration.ofSeconds(30)).until(() -> client.send("GET", "/users/" + id, null, null).status()
                == 200);
        // The API reads the log only to learn whether an event whose send failed was written: its search, as its user.
        ConsumerRecord<String, byte[]> written = EventLogReader.recordsWithKey(harness.broker.bootstrapServers(),
                Topics.USERS, id).get(0);
        String eventId = EventLogReader.header(written, CloudEventHeaders.ID);
        assertEquals(Optional.of(new LogPosition(Topics.USERS, written.partition(), written.offset())),
                LogSearches.find(kafkaClient(Role.API), Topics.USERS, id, eventId,
                        Instant.ofEpochMilli(written.timestamp())),
                "the API's log search finds the event as the API's user");
        CrashClient.Answer rebuilt = harness.client(operator).asOperator("POST",
                "/admin/rebuilds/streams/" + Topics.USERS + "/" + id);
        assertEquals(200, rebuilt.status(), "answered " + rebuilt.body());
        assertEquals(1, rebuilt.body().path("events").asInt(), "answered " + rebuilt.body());

        assertRefused(Role.API, settings -> KafkaAttempts.consumeAsGroup(settings, "cabinet-projector"),
                GroupAuthorizationException.class);
        assertRefused(Role.API, settings -> KafkaAttempts.produce(settings, Topics.DEAD_LETTERS),
                TopicAuthorizationException.class);
        assertRefused(Role.PROJECTOR, settings -> KafkaAttempts.produce(settings, Topics.USERS),
                TopicAuthorizationException.class);
        assertRefused(Role.OPERATOR, settings -> KafkaAttempts.produce(settings, Topics.USERS),
                TopicAuthorizationException.class);
        assertRefused(Role.OPERATOR, settings -> KafkaAttempts.consumeAsGroup(settings, "cabinet-projector"),
                GroupAuthorizationException.class);
        Map<String, Object> wrongPassword = kafkaClient(Role.API);
        wrongPassword.put(SaslConfigs.SASL_JAAS_CONFIG, kafkaSecrets.get("cabinet-api")
                .replaceAll("password=\"[^\"]*\"", "password=\"wrong\""));
        Throwable refused = KafkaAttempts.refusal(() -> KafkaAttempts.produce(wrongPassword, Topics.USERS));
        assertTrue(refused instanceof SaslAuthenticationException, "refused with " + refused);
    }

    /** The client settings of a role's pod, for a client of the test's own. */
    private static Map<String, Object> kafkaClient(Role role) throws Exception {
        String bootstrap = harness.broker.securedBootstrapServers();
        return new HashMap<>(DeployedKafkaUsers.clientSettings(DeployedKafkaUsers.podEnvironment(role, kafkaSecrets,
                bootstrap, harness.brokerCertificate())));
    }

    /** What {@code attempt} made with the role's settings is refused with the kind expected. */
    private static void assertRefused(Role role, KafkaAttempts.WithSettings attempt,
            Class<? extends Throwable> expected)
            throws Exception {
        Map<String, Object> settings = kafkaClient(role);
        Throwable refused = KafkaAttempts.refusal(() -> attempt.run(settings));
        assertTrue(expected.isInstance(refused), role.label() + " was refused with " + refused + ", not "
                + expected.getSimpleName());
    }

    /** An API whose broker never answers (a port nobody listens on) refuses a command: never a 202. */
    @Test
    void aCommandTheLogDoesNotAcknowledgeIsA503WithAnUnknownOutcomeNeverA202() throws Exception {
        AppProcess silent = app("api-without-broker", Map.of("cabinet.role", "api",
                "kafka.bootstrap.servers", "127.0.0.1:" + FreePorts.pick(),
                "mp.messaging.outgoing.events-out.max.block.ms", "2000"));
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

    /**
     * The production wrapping: the API makes a person's key with GenerateDataKey, the projector unwraps it with Decrypt
     * naming the configured key, the table keeps only the wrapped key, and an erasure works as with the local wrapping.
     * The operations made are what the roles' policies grant (and IamPoliciesIT checks the call log).
     */
    @Test
    void kmsMakesAndUnwrapsEachPersonsKeyAndNothingElse() {
        String ada = "u" + Ids.newId();
        StubKms.REQUESTS.clear();
        assertEquals(202, client.send("PUT", "/users/" + ada, ada, Map.of("name", "Ada under KMS", "email",
                "ada@example.org")).status());
        await().atMost(Duration.ofSeconds(30)).until(() -> "Ada under KMS".equals(client.send("GET", "/users/" + ada,
                null, null).body().path("name").asText()));

        Map<String, AttributeValue> item = dataKey(ada);
        assertEquals("kms:" + StubKms.KEY_ARN, item.get(Attributes.WRAPPING).s());
        assertEquals(StubKms.KEY_ARN, item.get(Attributes.WRAPPED_UNDER).s(), "the ARN KMS answered with");
        assertTrue(item.get(Attributes.WRAPPED_KEY).b().asByteArray().length > 32, "the table keeps it wrapped");
        assertEquals(Set.of("TrentService.Decrypt " + StubKms.KEY_ARN, "TrentService.GenerateDataKey "
                + StubKms.KEY_ARN), new TreeSet<>(StubKms.REQUESTS), "one key, two operations");
        assertTrue(IamRole.API.grants("kms:GenerateDataKey", IamRole.Resource.KEY));
        assertTrue(IamRole.PROJECTOR.grants("kms:Decrypt", IamRole.Resource.KEY));

        assertEquals(202, client.send("DELETE", "/users/" + ada, ada, null).status());
        await().atMost(Duration.ofSeconds(30)).until(() -> client.send("GET", "/users/" + ada, null, null)
                .status() == 410);
        await().atMost(Duration.ofSeconds(30)).until(() -> dataKey(ada).get(Attributes.WRAPPED_KEY) == null);
    }

    /**
     * The writer keeps writing the older version while the setting names it: the record in the log is an
     * order-placed v1 (its total a JSON number), and readers upcast it, so the order reads as any other.
     */
    @Test
    void anOrderIsWrittenAsTheOlderVersionAndReadAsTheCurrentOne() throws Exception {
        String clerk = "u" + Ids.newId();
        String customer = "C" + Ids.newId();
        String order = "O" + Ids.newId();
        assertEquals(202, client.send("PUT", "/customers/" + customer, clerk, Map.of("name", "Older readers",
                "email", "older@example.com")).status());
        await().atMost(Duration.ofSeconds(30)).until(() -> client.send("GET", "/customers/" + customer, null, null)
                .status() == 200);
        CrashClient.Answer placed = client.send("POST", "/customers/" + customer + "/orders", clerk, Map.of(
                "orderId", order, "placedAt", "2026-07-01T10:00:00Z", "total", "129.90"));
        assertEquals(202, placed.status(), "answered " + placed.body());
        assertEquals("cabinet.customer.order-placed.v1", placed.body().path("type").asText());
        await().atMost(Duration.ofSeconds(30)).until(() -> "129.90".equals(client.send("GET", "/orders/" + order,
                null, null).body().path("total").asText()));

        var records = EventLogReader.recordsWithKey(harness.broker.bootstrapServers(), Topics.CUSTOMERS, customer);
        var record = records.get(records.size() - 1);
        assertEquals("cabinet.customer.order-placed.v1", EventLogReader.header(record, CloudEventHeaders.TYPE));
        var total = new ObjectMapper().readTree(record.value()).get("total");
        assertTrue(total.isNumber(), "v1 writes the total as a JSON number: " + total);
        assertEquals(0, new BigDecimal("129.90").compareTo(total.decimalValue()), total.toString());
    }

    /** The person's data key item as the table holds it (a consistent read). */
    private static Map<String, AttributeValue> dataKey(String subjectId) {
        return harness.dynamo().getItem(request -> request.tableName("cabinet").consistentRead(true)
                .key(KeyPlan.SUBJECT_KEY.key(subjectId).toAttributes())).item();
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
