package dev.cabinet.deploy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.cabinet.config.ConfigurationDocument;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.iam.IamRole;
import dev.cabinet.projection.ordering.GracefulDrain;
import dev.cabinet.projection.ordering.ProjectionConfig;
import io.smallrye.config.WithDefault;
import dev.cabinet.role.Role;
import dev.cabinet.support.GeneratedFiles;
import io.quarkus.test.junit.QuarkusTest;

/**
 * deploy/k8s is checked, not just written: every overlay is rendered with {@code kubectl kustomize} and must parse,
 * probe real endpoints, set only environment variables that are configuration properties, declare the topics and the
 * table the code expects, and run as non-root with resources; run the image their overlay names, leave the HPA's
 * count alone, have no more consumers than partitions, spread and bound their scratch space, require the Secret,
 * protect the production table and let Prometheus scrape them. The generated files are compared with what the code
 * renders (a run that finds them stale rewrites them), and the Dockerfiles follow the conventions.
 */
@QuarkusTest
class DeploymentManifestsTest {

    private static final Path K8S = Path.of("..", "deploy", "k8s");
    private static final Path DOCKER = Path.of("src", "main", "docker");
    private static final Path PROPERTIES = Path.of("src", "main", "resources", "application.properties");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Environment variables read by something other than SmallRye Config, and who reads them. */
    private static final Map<String, String> NOT_PROPERTIES = Map.of("AWS_REGION", "the AWS SDK's region chain",
            "JAVA_MAX_MEM_RATIO", "the image's entrypoint (run-java.sh): the heap's share of the memory limit");
    /** Extension properties the manifests set that application.properties leaves to their defaults. */
    private static final Set<String> EXTENSION_PROPERTIES = Set.of(
            "quarkus.dynamodb.endpoint-override", "quarkus.dynamodb.aws.region", "quarkus.dynamodb.aws.credentials.type",
            "quarkus.dynamodb.aws.credentials.static-provider.access-key-id",
            "quarkus.dynamodb.aws.credentials.static-provider.secret-access-key",
            "quarkus.s3.endpoint-override", "quarkus.s3.path-style-access", "quarkus.s3.aws.region",
            "quarkus.s3.aws.credentials.type",
            "quarkus.s3.aws.credentials.static-provider.access-key-id",
            "quarkus.s3.aws.credentials.static-provider.secret-access-key");

    @ConfigProperty(name = "mp.messaging.incoming.events.topics")
    List<String> topics;

    @ConfigProperty(name = "cabinet.events.partitions")
    int partitions;

    @ConfigProperty(name = "mp.messaging.incoming.events.group.id")
    String projectorGroup;

    @ConfigProperty(name = "mp.messaging.incoming.file-objects.group.id")
    String fileObjectsGroup;

    @Test
    void theGeneratedResourcesAreWhatTheCodeRenders() throws Exception {
        assertEquals(new TreeSet<>(Topics.ALL), new TreeSet<>(topics), "Topics.ALL and the consumer's topics differ");
        Map<Path, String> generated = new LinkedHashMap<>();
        generated.put(K8S.resolve("base/generated/dynamodb-table.yaml"), GeneratedManifests.table());
        generated.put(K8S.resolve("base/generated/kafka-topics.yaml"), GeneratedManifests.topics(topics, partitions));
        generated.put(K8S.resolve("base/generated/kafka-users.yaml"),
                GeneratedManifests.users(topics, projectorGroup, fileObjectsGroup));
        GeneratedFiles.checkAll(generated);
    }

    /**
     * Each Deployment connects to Kafka as the KafkaUser of its role, which the overlay deploys (the JAAS line from the
     * Secret Strimzi's User Operator makes for it), over TLS with SCRAM-SHA-512, trusting the certificate it mounts
     * from the cluster CA's Secret; where the overlay runs the cluster, its bootstrap port is that cluster's one
     * listener, with TLS and SCRAM-SHA-512, and the cluster authorizes by ACLs. ({@code ProductionModeIT} runs the
     * roles with these settings against a broker that enforces the KafkaUsers' ACLs.)
     */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void eachRoleConnectsToKafkaAsItsOwnUserOverTls(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        assertEquals(GeneratedManifests.DEPLOYED_ROLES.stream().map(GeneratedManifests::kafkaUser)
                .collect(Collectors.toSet()), ofKind(resources, "KafkaUser").stream()
                        .map(user -> user.at("/metadata/name").asText()).collect(Collectors.toSet()));
        String bootstrap = null;
        for (JsonNode deployment : appDeployments(resources)) {
            String name = deployment.at("/metadata/name").asText();
            JsonNode pod = deployment.at("/spec/template/spec");
            JsonNode container = pod.at("/containers/0");
            Map<String, String> env = environment(resources, container);
            Role role = Role.parse(env.get("CABINET_ROLE"));
            JsonNode jaas = null;
            for (JsonNode variable : container.at("/env")) {
                if (variable.at("/name").asText().equals("KAFKA_SASL_JAAS_CONFIG")) {
                    jaas = variable;
                }
            }
            assertNotNull(jaas, name + " sets KAFKA_SASL_JAAS_CONFIG");
            assertEquals(GeneratedManifests.kafkaUser(role), jaas.at("/valueFrom/secretKeyRef/name").asText(), name);
            assertEquals("sasl.jaas.config", jaas.at("/valueFrom/secretKeyRef/key").asText(), name);
            assertEquals(Map.of("KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
                    "KAFKA_SSL_TRUSTSTORE_TYPE", "PEM"), Map.of(
                            "KAFKA_SECURITY_PROTOCOL", env.get("KAFKA_SECURITY_PROTOCOL"),
                            "KAFKA_SASL_MECHANISM", env.get("KAFKA_SASL_MECHANISM"),
                            "KAFKA_SSL_TRUSTSTORE_TYPE", env.get("KAFKA_SSL_TRUSTSTORE_TYPE")), name);
            Path truststore = Path.of(env.get("KAFKA_SSL_TRUSTSTORE_LOCATION"));
            JsonNode mount = null;
            for (JsonNode each : container.at("/volumeMounts")) {
                if (truststore.startsWith(each.at("/mountPath").asText())) {
                    mount = each;
                }
            }
            assertNotNull(mount, name + " mounts " + truststore);
            JsonNode volume = null;
            for (JsonNode each : pod.at("/volumes")) {
                if (each.at("/name").asText().equals(mount.at("/name").asText())) {
                    volume = each;
                }
            }
            assertNotNull(volume, name + " has the volume " + mount.at("/name").asText());
            assertEquals("cabinet-cluster-ca-cert", volume.at("/secret/secretName").asText(), name);
            String file = Path.of(mount.at("/mountPath").asText()).relativize(truststore).toString();
            boolean caCertificate = false;
            for (JsonNode item : volume.at("/secret/items")) {
                caCertificate |= item.at("/key").asText().equals("ca.crt") && item.at("/path").asText().equals(file);
            }
            assertTrue(caCertificate, name + ": " + truststore + " is the cluster CA's ca.crt");
            assertTrue(bootstrap == null || bootstrap.equals(env.get("KAFKA_BOOTSTRAP_SERVERS")),
                    name + " connects to the same cluster as the other roles");
            bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS");
        }
        List<JsonNode> clusters = ofKind(resources, "Kafka");
        assertEquals(overlay.equals("local") ? 1 : 0, clusters.size(), overlay + " runs its own Kafka cluster or not");
        for (JsonNode kafka : clusters) {
            assertEquals(kafka.at("/metadata/name").asText() + "-kafka-bootstrap", bootstrap.split(":")[0]);
            JsonNode listeners = kafka.at("/spec/kafka/listeners");
            assertEquals(1, listeners.size(), "one listener, authenticated: " + listeners);
            assertEquals(bootstrap.split(":")[1], listeners.get(0).at("/port").asText());
            assertTrue(listeners.get(0).at("/tls").asBoolean(), "the listener uses TLS");
            assertEquals("scram-sha-512", listeners.get(0).at("/authentication/type").asText());
            assertEquals("simple", kafka.at("/spec/kafka/authorization/type").asText(), "ACLs are enforced");
            assertTrue(kafka.at("/spec/entityOperator/userOperator").isObject(), "the User Operator makes the users");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyOverlayRendersToResourcesTheApplicationAgreesWith(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        List<JsonNode> deployments = ofKind(resources, "Deployment").stream()
                .filter(d -> d.at("/metadata/name").asText().startsWith("cabinet-")).toList();
        assertEquals(Set.of("cabinet-api", "cabinet-projector", "cabinet-operator"),
                deployments.stream().map(d -> d.at("/metadata/name").asText()).collect(Collectors.toSet()));
        Set<String> properties = knownProperties();
        for (JsonNode deployment : deployments) {
            String name = deployment.at("/metadata/name").asText();
            JsonNode pod = deployment.at("/spec/template/spec");
            assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean(), name + " must run as non-root");
            // Stopping runs preStop, then quarkus.shutdown.delay (readiness DOWN, still serving), then the drain.
            long preStop = pod.at("/containers/0/lifecycle/preStop/sleep/seconds").asLong(0);
            assertTrue(preStop > 0, name + " sleeps in preStop while its endpoints are removed");
            assertTrue(pod.at("/terminationGracePeriodSeconds").asLong() > preStop
                    + prodDuration("quarkus.shutdown.delay").toSeconds() + prodDuration("quarkus.shutdown.timeout")
                            .toSeconds(),
                    name + ": the grace period must outlast preStop, quarkus.shutdown.delay and .timeout together");
            if (name.equals("cabinet-projector")) {
                // The projector's drain runs on Quarkus' shutdown event, after its own wait: the pause, the batches
                // (cabinet.projection.drain-timeout), the commit, then the consumers' close.
                String drainTimeout = ProjectionConfig.class.getMethod("drainTimeout").getAnnotation(WithDefault.class)
                        .value();
                long closeMillis = Long.parseLong(properties().getProperty(
                        "mp.messaging.incoming.events.close-timeout"));
                Duration drain = GracefulDrain.longest(Duration.parse("PT" + drainTimeout.toUpperCase(Locale.ROOT)))
                        .plusMillis(closeMillis);
                assertTrue(pod.at("/terminationGracePeriodSeconds").asLong() > preStop
                        + prodDuration("quarkus.shutdown.delay").toSeconds() + drain.toSeconds(),
                        name + ": the grace period must outlast preStop, quarkus.shutdown.delay and the drain (" + drain
                                + ")");
            }
            assertEquals(name, pod.at("/serviceAccountName").asText(), name + " runs as its own identity (IAM role)");
            for (JsonNode container : pod.at("/containers")) {
                assertFalse(container.at("/resources/requests/cpu").isMissingNode(), name + " needs a cpu request");
                assertFalse(container.at("/resources/limits/memory").isMissingNode(), name + " needs a memory limit");
                assertFalse(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true));
                for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                    String path = container.at("/" + probe + "/httpGet/path").asText();
                    given().get(path).then().statusCode(200);
                }
                List<String> variables = new ArrayList<>();
                container.at("/env").forEach(e -> variables.add(e.at("/name").asText()));
                for (JsonNode source : container.at("/envFrom")) {
                    String configMap = source.at("/configMapRef/name").asText(null);
                    if (configMap != null) {
                        ofKind(resources, "ConfigMap").stream()
                                .filter(c -> c.at("/metadata/name").asText().equals(configMap))
                                .findFirst().orElseThrow(() -> new AssertionError("no ConfigMap " + configMap))
                                .at("/data").fieldNames().forEachRemaining(variables::add);
                    }
                }
                for (String variable : variables) {
                    assertTrue(NOT_PROPERTIES.containsKey(variable) || properties.contains(variable)
                            || isKafkaClientSetting(variable),
                            overlay + ": " + variable + " is not a configuration property of the application");
                }
            }
            String role = environment(resources, pod.at("/containers/0")).get("CABINET_ROLE");
            assertEquals(name.substring("cabinet-".length()), role, name + " runs the matching cabinet.role");
            // Its identity's IAM role carries the one policy an instance of that role needs, and no other.
            assertEquals(Set.of(pod.at("/serviceAccountName").asText()), IamRole.ofInstance(role).stream()
                    .map(IamRole::policyName).collect(Collectors.toSet()), name);
            if (overlay.equals("prod")) {
                JsonNode account = ofKind(resources, "ServiceAccount").stream()
                        .filter(a -> a.at("/metadata/name").asText().equals(name)).findFirst().orElseThrow();
                assertTrue(account.at("/metadata/annotations/eks.amazonaws.com~1role-arn").asText()
                        .endsWith(":role/" + name), name + "'s IAM role is its own");
            }
        }
        List<JsonNode> kafkaTopics = ofKind(resources, "KafkaTopic");
        Set<String> declared = kafkaTopics.stream().map(t -> t.at("/spec/topicName").asText()).collect(Collectors.toSet());
        Set<String> expected = new HashSet<>(topics);
        expected.add(Topics.DEAD_LETTERS);
        assertEquals(expected, declared);
        for (JsonNode topic : kafkaTopics) {
            assertEquals(partitions, topic.at("/spec/partitions").asInt(), topic.at("/spec/topicName").asText());
            if (topics.contains(topic.at("/spec/topicName").asText())) {
                assertEquals(-1, topic.at("/spec/config/retention.ms").asLong(), "the event log is kept forever");
            }
        }
        List<JsonNode> tables = ofKind(resources, "Table");
        if (overlay.equals("prod")) {
            assertEquals(1, tables.size());
            assertEquals(YAML.valueToTree(GeneratedManifests.tableSpec("cabinet")), tables.get(0).at("/spec"));
        } else {
            assertEquals(0, tables.size(), "the local overlay lets the application create its table");
        }
        assertEquals(1, ofKind(resources, "HorizontalPodAutoscaler").size());
        assertEquals(overlay.equals("prod") ? 2 : 0, ofKind(resources, "PodDisruptionBudget").size(),
                "prod keeps an API instance and a projector through a drain; one replica each locally cannot");
        assertFalse(ofKind(resources, "NetworkPolicy").isEmpty());
    }

    /**
     * What an instance holds besides its heap, committed, after the benchmark's command and projection phases (NMT:
     * metaspace, class space, code cache, GC structures, threads, symbols, the CDS archive, direct buffers; the
     * projector, the larger of the two; docs/deploy.md "Memory" has the figures and the command that measures them).
     */
    static final long NON_HEAP_MIB = 225;
    /** The heap in use after a full GC, under load (the larger role's): the live set the heap must hold several times. */
    static final long LIVE_SET_MIB = 34;

    /**
     * The memory limit of every pod holds the heap the image's entrypoint gives the JVM there (composed as run-java.sh
     * does, from the image's ENV and the pod's env) and the non-heap measured under load, with a tenth of the limit
     * to spare (glibc's arenas, growth); and the heap holds the live set at least four times over.
     */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyPodsMemoryLimitHoldsItsHeapAndTheMeasuredNonHeap(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        for (JsonNode deployment : appDeployments(resources)) {
            String name = deployment.at("/metadata/name").asText();
            JsonNode container = deployment.at("/spec/template/spec/containers/0");
            long limit = mebibytes(container.at("/resources/limits/memory").asText());
            String percentage = ImageDockerfile.read("Dockerfile.jvm").entrypointJvmOptions(
                    environment(resources, container),
                    Map.of("/deployments/app-cds.jsa", Path.of("app-cds.jsa"))).stream()
                    .filter(option -> option.startsWith("-XX:MaxRAMPercentage=")).findFirst().orElseThrow()
                    .substring("-XX:MaxRAMPercentage=".length());
            double heap = limit * Double.parseDouble(percentage) / 100;
            assertTrue(heap + NON_HEAP_MIB <= limit * 0.9, overlay + ": " + name + "'s limit of " + limit
                    + " MiB holds a " + heap + " MiB heap and " + NON_HEAP_MIB + " MiB beside it, with a tenth spare");
            assertTrue(heap >= 4 * LIVE_SET_MIB, overlay + ": " + name + "'s heap of " + heap + " MiB");
        }
    }

    private static long mebibytes(String quantity) {
        if (quantity.endsWith("Gi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * 1024;
        }
        assertTrue(quantity.endsWith("Mi"), "a memory limit in Mi or Gi: " + quantity);
        return Long.parseLong(quantity.substring(0, quantity.length() - 2));
    }

    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyWorkloadRunsTheImageItsOverlayNames(String overlay) throws Exception {
        // local: the image the README's local section builds and loads (the base's name); prod: the overlay's registry.
        JsonNode images = YAML.readTree(K8S.resolve(overlay.equals("prod") ? "overlays/prod" : "base")
                .resolve("kustomization.yaml").toFile()).at("/images");
        assertEquals(1, images.size(), overlay + " names one image");
        String expected = images.get(0).at("/newName").asText() + ":" + images.get(0).at("/newTag").asText();
        if (overlay.equals("prod")) {
            assertTrue(expected.matches("\\d{12}\\.dkr\\.ecr\\.[a-z0-9-]+\\.amazonaws\\.com/.+"),
                    "prod runs an image from ECR: " + expected);
        } else {
            assertTrue(Files.readString(K8S.resolve("README.md"))
                    .contains("kind load docker-image " + expected), "the README loads " + expected + " into kind");
        }
        for (JsonNode deployment : appDeployments(render(overlay))) {
            for (JsonNode container : containers(deployment)) {
                assertEquals(expected, container.at("/image").asText(),
                        overlay + ": " + deployment.at("/metadata/name").asText() + " runs the overlay's image");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void aDeploymentScaledByAnAutoscalerSetsNoReplicasAnApplyWouldReset(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        List<JsonNode> autoscalers = ofKind(resources, "HorizontalPodAutoscaler");
        assertFalse(autoscalers.isEmpty());
        for (JsonNode hpa : autoscalers) {
            String target = hpa.at("/spec/scaleTargetRef/name").asText();
            JsonNode deployment = named(resources, "Deployment", target);
            assertTrue(deployment.at("/spec/replicas").isMissingNode(),
                    overlay + ": " + target + " is scaled by an HPA, yet sets replicas "
                            + deployment.at("/spec/replicas"));
        }
    }

    /**
     * A disruption budget lets a node drain evict one pod at the least: the pods it selects (the Deployment's replicas,
     * or its HPA's minimum) outnumber its {@code minAvailable}, and pods that are not ready may go. A budget of one over
     * a single replica would hold every drain until an operator deleted it.
     */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void noDisruptionBudgetBlocksANodeDrain(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        for (JsonNode budget : ofKind(resources, "PodDisruptionBudget")) {
            String selected = budget.at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText();
            JsonNode deployment = appDeployments(resources).stream()
                    .filter(d -> d.at("/spec/template/metadata/labels/app.kubernetes.io~1name").asText().equals(selected))
                    .findFirst().orElseThrow(() -> new AssertionError(overlay + ": no Deployment's pods are " + selected));
            String name = deployment.at("/metadata/name").asText();
            int replicas = ofKind(resources, "HorizontalPodAutoscaler").stream()
                    .filter(hpa -> hpa.at("/spec/scaleTargetRef/name").asText().equals(name))
                    .mapToInt(hpa -> hpa.at("/spec/minReplicas").asInt(1)).findFirst()
                    .orElse(deployment.at("/spec/replicas").asInt(1));
            assertTrue(budget.at("/spec/maxUnavailable").isMissingNode(), overlay + ": budgets here use minAvailable");
            // Counted among the available only when ready: in an outage that leaves every pod unready, a drain waits
            // for none of them.
            assertEquals("AlwaysAllow", budget.at("/spec/unhealthyPodEvictionPolicy").asText(), overlay + ": "
                    + budget.at("/metadata/name").asText() + " holds drains while its pods are unready");
            int minAvailable = budget.at("/spec/minAvailable").asInt();
            assertTrue(replicas > minAvailable, overlay + ": " + budget.at("/metadata/name").asText() + " keeps "
                    + minAvailable + " of " + name + "'s " + replicas + " pods, so no drain may evict one");
        }
    }

    /**
     * Every consumer of a group beyond the partitions of its topics sits idle: per incoming channel, the replicas of
     * every Deployment that runs it (the HPA's maximum if one scales it) times the channel's concurrency (its
     * application.properties value unless the manifests override it) must not exceed its topics' partitions.
     */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void projectorConsumersNeverOutnumberThePartitionsTheyRead(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        Properties file = properties();
        Set<String> channels = new TreeSet<>();
        Matcher incoming = Pattern.compile("mp\\.messaging\\.incoming\\.([^.]+)\\.connector").matcher("");
        for (String key : file.stringPropertyNames()) {
            if (incoming.reset(key).matches() && file.getProperty(key).equals("smallrye-kafka")) {
                channels.add(incoming.group(1));
            }
        }
        assertFalse(channels.isEmpty(), "application.properties declares the projector's channel");
        for (String channel : channels) {
            String prefix = "mp.messaging.incoming." + channel + ".";
            Map<String, Integer> consumersPerGroup = new TreeMap<>();
            Map<String, Set<String>> topicsPerGroup = new TreeMap<>();
            for (JsonNode deployment : appDeployments(resources)) {
                JsonNode container = deployment.at("/spec/template/spec/containers/0");
                Map<String, String> env = environment(resources, container);
                String role = env.getOrDefault("CABINET_ROLE", file.getProperty("cabinet.role"));
                boolean enabled = Boolean.parseBoolean(setting(env, file, prefix + "enabled",
                        Boolean.toString(Role.parse(role).projects())));
                if (!enabled) {
                    continue;
                }
                String name = deployment.at("/metadata/name").asText();
                int replicas = ofKind(resources, "HorizontalPodAutoscaler").stream()
                        .filter(h -> h.at("/spec/scaleTargetRef/name").asText().equals(name))
                        .mapToInt(h -> h.at("/spec/maxReplicas").asInt()).findFirst()
                        .orElseGet(() -> deployment.at("/spec/replicas").asInt(1));
                int concurrency = Integer.parseInt(setting(env, file, prefix + "concurrency", "1"));
                String group = setting(env, file, prefix + "group.id", name);
                String topicList = setting(env, file, prefix + "topics", setting(env, file, prefix + "topic", channel));
                consumersPerGroup.merge(group, replicas * concurrency, Integer::sum);
                topicsPerGroup.computeIfAbsent(group, g -> new TreeSet<>()).addAll(List.of(topicList.split(",")));
            }
            assertFalse(consumersPerGroup.isEmpty(), overlay + ": some Deployment runs the channel " + channel);
            for (Map.Entry<String, Integer> group : consumersPerGroup.entrySet()) {
                for (String topic : topicsPerGroup.get(group.getKey())) {
                    int topicPartitions = ofKind(resources, "KafkaTopic").stream()
                            .filter(t -> t.at("/spec/topicName").asText().equals(topic.trim()))
                            .mapToInt(t -> t.at("/spec/partitions").asInt()).findFirst()
                            .orElseThrow(() -> new AssertionError(overlay + ": no KafkaTopic " + topic));
                    assertTrue(group.getValue() <= topicPartitions, overlay + ": " + group.getValue()
                            + " consumers in group " + group.getKey() + " for " + topicPartitions + " partitions of "
                            + topic + " (replicas x " + prefix + "concurrency)");
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void appPodsRequestCpuSpreadOverNodesAndZonesAndBoundTheirScratchSpace(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        for (JsonNode deployment : appDeployments(resources)) {
            String name = deployment.at("/metadata/name").asText();
            for (JsonNode container : containers(deployment)) {
                assertFalse(container.at("/resources/requests/cpu").isMissingNode(), name + " needs a cpu request");
            }
            Map<String, JsonNode> spread = new HashMap<>();
            deployment.at("/spec/template/spec/topologySpreadConstraints")
                    .forEach(c -> spread.put(c.at("/topologyKey").asText(), c));
            for (String key : List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone")) {
                JsonNode constraint = spread.get(key);
                assertNotNull(constraint, overlay + ": " + name + " spreads over " + key);
                assertEquals(deployment.at("/spec/selector/matchLabels"), constraint.at("/labelSelector/matchLabels"),
                        name + " counts its own pods when spreading over " + key);
                // Required spreading counts nodes the pods cannot use (tainted, full) as domains holding none of them:
                // new pods would wait, and an autoscaler's maximum would need as many nodes (issue 39).
                assertEquals("ScheduleAnyway", constraint.at("/whenUnsatisfiable").asText(), overlay + ": " + name
                        + " prefers, and does not require, spreading over " + key);
            }
        }
        for (JsonNode resource : resources) {
            String where = overlay + ": " + resource.at("/kind").asText() + " "
                    + resource.at("/metadata/name").asText();
            for (JsonNode emptyDir : resource.findValues("emptyDir")) {
                assertTrue(emptyDir.hasNonNull("sizeLimit"), where + " has an emptyDir without sizeLimit");
            }
            for (JsonNode storage : resource.findValues("storage")) {
                if (storage.at("/type").asText().equals("ephemeral")) {
                    assertTrue(storage.hasNonNull("sizeLimit"), where + ": Strimzi's ephemeral storage is an emptyDir");
                }
            }
        }
    }

    /**
     * Every pod each overlay runs may run in a namespace that enforces Pod Security "restricted": the rules of that
     * profile (Kubernetes' Pod Security Standards), applied to each pod template as the admission controller applies
     * them, to the pod's and every container's security context.
     */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyPodMeetsPodSecurityRestricted(String overlay) throws Exception {
        Set<String> allowedVolumes = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
                "persistentVolumeClaim", "projected", "secret", "name");
        List<String> violations = new ArrayList<>();
        int pods = 0;
        for (JsonNode resource : render(overlay)) {
            JsonNode pod = resource.at("/spec/template/spec");
            if (pod.isMissingNode() || !resource.at("/apiVersion").asText().startsWith("apps/")
                    && !resource.at("/apiVersion").asText().startsWith("batch/")) {
                continue;
            }
            pods++;
            String name = resource.at("/kind").asText() + " " + resource.at("/metadata/name").asText();
            for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
                if (pod.path(host).asBoolean(false)) {
                    violations.add(name + ": " + host);
                }
            }
            for (JsonNode volume : pod.path("volumes")) {
                volume.fieldNames().forEachRemaining(type -> {
                    if (!allowedVolumes.contains(type)) {
                        violations.add(name + ": a " + type + " volume");
                    }
                });
            }
            JsonNode podContext = pod.path("securityContext");
            List<JsonNode> containers = new ArrayList<>();
            pod.path("initContainers").forEach(containers::add);
            pod.path("containers").forEach(containers::add);
            for (JsonNode container : containers) {
                String where = name + " container " + container.path("name").asText();
                JsonNode context = container.path("securityContext");
                if (context.path("privileged").asBoolean(false)) {
                    violations.add(where + ": privileged");
                }
                if (context.path("allowPrivilegeEscalation").asBoolean(true)) {
                    violations.add(where + ": allowPrivilegeEscalation is not false");
                }
                List<String> dropped = new ArrayList<>();
                context.at("/capabilities/drop").forEach(c -> dropped.add(c.asText()));
                if (!dropped.contains("ALL")) {
                    violations.add(where + ": does not drop ALL capabilities");
                }
                context.at("/capabilities/add").forEach(c -> {
                    if (!c.asText().equals("NET_BIND_SERVICE")) {
                        violations.add(where + ": adds " + c.asText());
                    }
                });
                if (!context.path("runAsNonRoot").asBoolean(podContext.path("runAsNonRoot").asBoolean(false))) {
                    violations.add(where + ": runAsNonRoot is not true");
                }
                if (context.path("runAsUser").asLong(podContext.path("runAsUser").asLong(-1)) == 0) {
                    violations.add(where + ": runs as user 0");
                }
                String seccomp = context.at("/seccompProfile/type").asText(podContext.at("/seccompProfile/type")
                        .asText(""));
                if (!seccomp.equals("RuntimeDefault") && !seccomp.equals("Localhost")) {
                    violations.add(where + ": seccompProfile is not RuntimeDefault or Localhost");
                }
            }
        }
        assertTrue(pods >= 3, overlay + ": found only " + pods + " pod templates");
        assertEquals(List.of(), violations, overlay);
    }

    /** Every overlay creates the namespace it puts its resources in, so that one apply deploys it on a new cluster. */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyOverlayCreatesItsNamespace(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        Set<String> used = new java.util.TreeSet<>();
        Set<String> created = new java.util.TreeSet<>();
        for (JsonNode resource : resources) {
            if (resource.at("/kind").asText().equals("Namespace")) {
                created.add(resource.at("/metadata/name").asText());
            } else if (resource.at("/metadata/namespace").isTextual()
                    && !resource.at("/metadata/namespace").asText().equals("monitoring")) {
                used.add(resource.at("/metadata/namespace").asText());
            }
        }
        assertFalse(used.isEmpty(), overlay + " puts its resources in a namespace");
        assertEquals(used, created, overlay + " creates the namespaces its resources use");
    }

    /**
     * The Secret is required: without it the prod profile cannot start (cursor key, JWT issuer), so a missing Secret
     * should stop the pod at creation with its name, not start a JVM that fails on configuration. Every setting the
     * prod profile reads from the environment without a default comes from the manifests or from the README's
     * command that creates the Secret.
     */
    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void theSecretIsRequiredAndTheReadmeCreatesWhatTheProdProfileNeeds(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        Set<String> documented = new HashSet<>();
        Matcher literal = Pattern.compile("--from-literal=([A-Z0-9_]+)=")
                .matcher(Files.readString(K8S.resolve("README.md")));
        while (literal.find()) {
            documented.add(literal.group(1));
        }
        Properties file = properties();
        Matcher required = Pattern.compile("\\$\\{([A-Z0-9_]+)}").matcher("");
        for (JsonNode deployment : appDeployments(resources)) {
            String name = deployment.at("/metadata/name").asText();
            JsonNode container = deployment.at("/spec/template/spec/containers/0");
            List<JsonNode> secrets = new ArrayList<>();
            container.at("/envFrom").forEach(source -> {
                if (source.has("secretRef")) {
                    secrets.add(source.at("/secretRef"));
                }
            });
            assertEquals(List.of("cabinet-secrets"), secrets.stream().map(s -> s.at("/name").asText()).toList(), name);
            assertFalse(secrets.get(0).at("/optional").asBoolean(false),
                    overlay + ": " + name + " requires the Secret");
            Map<String, String> env = environment(resources, container);
            for (String key : file.stringPropertyNames()) {
                if (key.startsWith("%") && !key.startsWith("%prod.")) {
                    continue;
                }
                required.reset(file.getProperty(key));
                while (required.find()) {
                    assertTrue(env.containsKey(required.group(1)) || documented.contains(required.group(1)),
                            overlay + ": " + key + " needs " + required.group(1)
                                    + ", which neither the manifests nor deploy/k8s/README.md's Secret provide");
                }
            }
        }
    }

    @Test
    void theProductionTableSurvivesDeletionAndCanBeRestoredToAPointInTime() throws Exception {
        JsonNode table = named(render("prod"), "Table", "cabinet");
        assertEquals("retain", table.at("/metadata/annotations").path(GeneratedManifests.DELETION_POLICY).asText(),
                "deleting the Table resource (or the namespace) keeps the table in AWS");
        assertTrue(table.at("/spec/deletionProtectionEnabled").asBoolean(false), "DynamoDB refuses to delete it");
        assertTrue(table.at("/spec/continuousBackups/pointInTimeRecoveryEnabled").asBoolean(false),
                "point-in-time recovery");
    }

    @Test
    void prometheusScrapesTheMetricsOfEveryDeployment() throws Exception {
        List<JsonNode> resources = render("prod");
        List<JsonNode> monitors = ofKind(resources, "ServiceMonitor");
        assertEquals(1, monitors.size());
        JsonNode monitor = monitors.get(0);
        Set<String> scraped = new HashSet<>();
        for (JsonNode service : ofKind(resources, "Service")) {
            if (!selects(monitor.at("/spec/selector/matchLabels"), service.at("/metadata/labels"))) {
                continue;
            }
            for (JsonNode endpoint : monitor.at("/spec/endpoints")) {
                JsonNode port = null;
                for (JsonNode p : service.at("/spec/ports")) {
                    port = p.at("/name").asText().equals(endpoint.at("/port").asText()) ? p : port;
                }
                assertNotNull(port, service.at("/metadata/name").asText() + " has the port " + endpoint.at("/port"));
                given().get(endpoint.at("/path").asText()).then().statusCode(200);
                for (JsonNode deployment : appDeployments(resources)) {
                    boolean backs = selects(service.at("/spec/selector"),
                            deployment.at("/spec/template/metadata/labels"));
                    boolean named = false;
                    for (JsonNode p : deployment.at("/spec/template/spec/containers/0/ports")) {
                        named |= p.at("/name").asText().equals(port.at("/targetPort").asText());
                    }
                    if (backs && named) {
                        scraped.add(deployment.at("/metadata/name").asText());
                    }
                }
            }
        }
        assertEquals(Set.of("cabinet-api", "cabinet-projector", "cabinet-operator"), scraped,
                "the ServiceMonitor reaches every Deployment");
        for (String internal : List.of("cabinet-projector", "cabinet-operator")) {
            JsonNode policy = named(resources, "NetworkPolicy", internal);
            assertTrue(policy.at("/spec/ingress").findValues("namespaceSelector").stream()
                    .anyMatch(n -> n.at("/matchLabels").path("kubernetes.io/metadata.name").asText()
                            .equals("monitoring")),
                    internal + "'s NetworkPolicy lets Prometheus (namespace monitoring) in");
        }
        assertTrue(ofKind(render("local"), "ServiceMonitor").isEmpty(), "a local cluster needs no Prometheus Operator");
    }

    @ParameterizedTest
    @ValueSource(strings = { "Dockerfile.jvm", "Dockerfile.jvm25", "Dockerfile.native", "Dockerfile.native-micro" })
    void theImagesFollowTheConventions(String file) throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve(file), StandardCharsets.UTF_8);
        assertTrue(dockerfile.startsWith("####"), file + " starts with its usage header");
        assertTrue(dockerfile.contains("docker build -f src/main/docker/" + file), file + " says how to build it");
        List<String> bases = bases(DOCKER.resolve(file));
        assertFalse(bases.isEmpty(), file + " has a base");
        for (String base : bases) {
            assertTrue(base.contains("ubi9"), file + ": " + base + " is not UBI 9");
            assertTrue(base.contains("@sha256:"), file + ": " + base + " is not pinned by digest");
        }
        Matcher user = Pattern.compile("(?m)^USER (\\S+)").matcher(dockerfile);
        assertTrue(user.find() && !user.group(1).equals("0") && !user.group(1).equals("root"), file + " runs as non-root");
    }

    /**
     * The micro image is UBI micro with the libraries Quarkus's micro image adds, taken from the native image's own base:
     * one digest to move for both, and both stages on one UBI release (a library from another release may need a newer
     * C library than the micro base has).
     */
    @Test
    void theMicroImageTakesItsLibrariesFromTheNativeImagesBaseOfItsRelease() throws IOException {
        List<String> micro = bases(DOCKER.resolve("Dockerfile.native-micro"));
        assertEquals(2, micro.size(), micro.toString());
        assertEquals(bases(DOCKER.resolve("Dockerfile.native")), micro.subList(0, 1),
                "the libraries' stage is Dockerfile.native's base");
        Set<String> releases = micro.stream().map(base -> base.replaceAll(".*:([^:@]+)@.*", "$1"))
                .collect(Collectors.toSet());
        assertEquals(1, releases.size(), "both stages on one release: " + releases);
        assertTrue(micro.get(1).contains("/ubi9/ubi-micro:"), micro.get(1));
    }

    /** The images a Dockerfile builds from, every stage's, in order. */
    private static List<String> bases(Path dockerfile) throws IOException {
        Matcher from = Pattern.compile("(?m)^FROM (\\S+)").matcher(Files.readString(dockerfile,
                StandardCharsets.UTF_8));
        List<String> bases = new ArrayList<>();
        while (from.find()) {
            bases.add(from.group(1));
        }
        return bases;
    }

    /** The local overlay's images build from bases pinned by digest, every stage of them. */
    @ParameterizedTest
    @ValueSource(strings = { "dynalite", "s3proxy" })
    void theLocalImagesPinEveryBaseByDigest(String image) throws IOException {
        List<String> bases = bases(K8S.resolve("overlays/local").resolve(image).resolve("Dockerfile"));
        assertFalse(bases.isEmpty(), image + " has a base");
        for (String base : bases) {
            assertTrue(base.contains("@sha256:"), image + ": " + base + " is not pinned by digest");
        }
    }

    /** Each overlay as kustomize renders it: rendered once per test JVM (kubectl takes about half a second). */
    private static final Map<String, List<JsonNode>> RENDERED = new ConcurrentHashMap<>();

    static List<JsonNode> render(String overlay) throws Exception {
        List<JsonNode> rendered = RENDERED.get(overlay);
        if (rendered == null) {
            rendered = List.copyOf(renderNow(overlay));
            RENDERED.put(overlay, rendered);
        }
        return rendered;
    }

    private static List<JsonNode> renderNow(String overlay) throws Exception {
        Process kustomize = new ProcessBuilder("kubectl", "kustomize", K8S.resolve("overlays").resolve(overlay).toString())
                .redirectErrorStream(true).start();
        String output = new String(kustomize.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(kustomize.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, kustomize.exitValue(), "kubectl kustomize failed: " + output);
        List<JsonNode> resources = new ArrayList<>();
        YAML.readerFor(JsonNode.class).readValues(output).forEachRemaining(node -> resources.add((JsonNode) node));
        assertFalse(resources.isEmpty());
        return resources;
    }

    static List<JsonNode> appDeployments(List<JsonNode> resources) {
        return ofKind(resources, "Deployment").stream()
                .filter(d -> d.at("/metadata/name").asText().startsWith("cabinet-")).toList();
    }

    /** Whether every label of the selector is on the object. */
    private static boolean selects(JsonNode selector, JsonNode labels) {
        boolean all = !selector.isEmpty();
        for (Map.Entry<String, JsonNode> label : selector.properties()) {
            all &= label.getValue().asText().equals(labels.path(label.getKey()).asText());
        }
        return all;
    }

    private static List<JsonNode> containers(JsonNode deployment) {
        List<JsonNode> all = new ArrayList<>();
        deployment.at("/spec/template/spec/initContainers").forEach(all::add);
        deployment.at("/spec/template/spec/containers").forEach(all::add);
        return all;
    }

    static JsonNode named(List<JsonNode> resources, String kind, String name) {
        return ofKind(resources, kind).stream().filter(r -> r.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    /** The container's environment: its ConfigMaps' data, then its own env entries (which win). */
    static Map<String, String> environment(List<JsonNode> resources, JsonNode container) {
        Map<String, String> env = new HashMap<>();
        for (JsonNode source : container.at("/envFrom")) {
            if (source.has("configMapRef")) {
                named(resources, "ConfigMap", source.at("/configMapRef/name").asText()).at("/data").fields()
                        .forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
            }
        }
        container.at("/env").forEach(e -> env.put(e.at("/name").asText(), e.at("/value").asText()));
        return env;
    }

    /** A property as a prod instance sees it: its environment variable, else %prod, else the plain key. */
    private static String setting(Map<String, String> env, Properties file, String property, String fallback) {
        return env.getOrDefault(environmentName(property),
                file.getProperty("%prod." + property, file.getProperty(property, fallback)));
    }

    private static Properties properties() throws IOException {
        Properties file = new Properties();
        try (var in = Files.newInputStream(PROPERTIES)) {
            file.load(in);
        }
        return file;
    }

    static List<JsonNode> ofKind(List<JsonNode> resources, String kind) {
        return resources.stream().filter(r -> kind.equals(r.at("/kind").asText())).toList();
    }

    /**
     * The environment-variable names of every property the application knows: the keys of application.properties (any
     * profile), the variables its expressions read, every config mapping's setting, and a few extension properties.
     */
    private static Set<String> knownProperties() throws IOException {
        Set<String> names = new HashSet<>(EXTENSION_PROPERTIES);
        Properties file = new Properties();
        try (var in = Files.newInputStream(PROPERTIES)) {
            file.load(in);
        }
        Set<String> variables = new HashSet<>();
        Matcher expression = Pattern.compile("\\$\\{([A-Z0-9_]+)").matcher("");
        for (String key : file.stringPropertyNames()) {
            names.add(key.startsWith("%") ? key.substring(key.indexOf('.') + 1) : key);
            expression.reset(file.getProperty(key));
            while (expression.find()) {
                variables.add(expression.group(1));
            }
        }
        ConfigurationDocument.settings().forEach(setting -> names.add(setting.name()));
        Set<String> environment = names.stream().map(DeploymentManifestsTest::environmentName).collect(Collectors.toSet());
        environment.addAll(variables);
        return environment;
    }

    /**
     * Whether a variable is a Kafka client setting: the Kafka extension hands every {@code KAFKA_} variable to the
     * clients (the rest of its name in lower case, '_' read as '.'), as the {@code default-kafka-broker} settings.
     */
    static boolean isKafkaClientSetting(String variable) {
        if (!variable.startsWith("KAFKA_")) {
            return false;
        }
        String name = variable.substring("KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.');
        return ProducerConfig.configNames().contains(name) || ConsumerConfig.configNames().contains(name)
                || AdminClientConfig.configNames().contains(name);
    }

    /** How SmallRye Config names a property in the environment: non-alphanumerics become '_', letters upper case. */
    private static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** A duration the prod profile sets (the shutdown's delay and drain, which the grace periods must outlast). */
    private static Duration prodDuration(String property) throws IOException {
        String value = properties().getProperty("%prod." + property);
        assertNotNull(value, "%prod." + property + " is part of the stop the grace periods must outlast");
        return Duration.parse("PT" + value.toUpperCase(Locale.ROOT));
    }
}
