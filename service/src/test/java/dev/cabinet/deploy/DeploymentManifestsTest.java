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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import dev.cabinet.eventlog.Topics;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.config.ConfigMapping;

/**
 * deploy/k8s is checked, not just written: every overlay is rendered with {@code kubectl kustomize} and must parse,
 * probe real endpoints, set only environment variables that are configuration properties, declare the topics and the
 * table the code expects, and run as non-root with resources. The generated files are compared with what the code
 * renders (-Dcabinet.docs.write=true rewrites them), and the Dockerfiles follow the conventions.
 */
@QuarkusTest
class DeploymentManifestsTest {

    private static final Path K8S = Path.of("..", "deploy", "k8s");
    private static final Path DOCKER = Path.of("src", "main", "docker");
    private static final Path PROPERTIES = Path.of("src", "main", "resources", "application.properties");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Environment variables read by something other than SmallRye Config, and who reads them. */
    private static final Map<String, String> NOT_PROPERTIES = Map.of("AWS_REGION", "the AWS SDK's region chain");
    /** Extension properties the manifests set that application.properties leaves to their defaults. */
    private static final Set<String> EXTENSION_PROPERTIES = Set.of(
            "quarkus.dynamodb.endpoint-override", "quarkus.dynamodb.aws.region", "quarkus.dynamodb.aws.credentials.type",
            "quarkus.dynamodb.aws.credentials.static-provider.access-key-id",
            "quarkus.dynamodb.aws.credentials.static-provider.secret-access-key");

    @ConfigProperty(name = "mp.messaging.incoming.events.topics")
    List<String> topics;

    @ConfigProperty(name = "cabinet.events.partitions")
    int partitions;

    @Test
    void theGeneratedResourcesAreWhatTheCodeRenders() throws Exception {
        assertEquals(new TreeSet<>(Topics.ALL), new TreeSet<>(topics), "Topics.ALL and the consumer's topics differ");
        check(K8S.resolve("base/generated/dynamodb-table.yaml"), GeneratedManifests.table());
        check(K8S.resolve("base/generated/kafka-topics.yaml"), GeneratedManifests.topics(topics, partitions));
    }

    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyOverlayRendersToResourcesTheApplicationAgreesWith(String overlay) throws Exception {
        List<JsonNode> resources = render(overlay);
        List<JsonNode> deployments = ofKind(resources, "Deployment").stream()
                .filter(d -> d.at("/metadata/name").asText().startsWith("cabinet-")).toList();
        assertEquals(Set.of("cabinet-api", "cabinet-projector"),
                deployments.stream().map(d -> d.at("/metadata/name").asText()).collect(Collectors.toSet()));
        Set<String> properties = knownProperties();
        for (JsonNode deployment : deployments) {
            String name = deployment.at("/metadata/name").asText();
            JsonNode pod = deployment.at("/spec/template/spec");
            assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean(), name + " must run as non-root");
            assertTrue(pod.at("/terminationGracePeriodSeconds").asLong() > shutdownTimeout().toSeconds(),
                    name + ": the grace period must outlast quarkus.shutdown.timeout");
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
                    assertTrue(NOT_PROPERTIES.containsKey(variable) || properties.contains(variable),
                            overlay + ": " + variable + " is not a configuration property of the application");
                }
            }
            String role = pod.at("/containers/0/env").findValuesAsText("value").get(0);
            assertEquals(name.substring("cabinet-".length()), role, name + " runs the matching cabinet.role");
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
        assertEquals(2, ofKind(resources, "PodDisruptionBudget").size());
        assertFalse(ofKind(resources, "NetworkPolicy").isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = { "Dockerfile.jvm", "Dockerfile.legacy-jar", "Dockerfile.native", "Dockerfile.native-micro" })
    void theImagesFollowTheConventions(String file) throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve(file), StandardCharsets.UTF_8);
        assertTrue(dockerfile.startsWith("####"), file + " starts with its usage header");
        assertTrue(dockerfile.contains("docker build -f src/main/docker/" + file), file + " says how to build it");
        Matcher from = Pattern.compile("(?m)^FROM (\\S+)").matcher(dockerfile);
        assertTrue(from.find() && from.group(1).contains("ubi9"), file + " is based on UBI 9");
        Matcher user = Pattern.compile("(?m)^USER (\\S+)").matcher(dockerfile);
        assertTrue(user.find() && !user.group(1).equals("0") && !user.group(1).equals("root"), file + " runs as non-root");
    }

    private static void check(Path file, String rendered) throws IOException {
        if (Boolean.getBoolean("cabinet.docs.write")) {
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        assertEquals(rendered, Files.readString(file, StandardCharsets.UTF_8), file + " is stale: regenerate it with "
                + "./mvnw test -Dtest=DeploymentManifestsTest -Dsurefire.failIfNoSpecifiedTests=false -Dcabinet.docs.write=true");
    }

    private static List<JsonNode> render(String overlay) throws Exception {
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

    private static List<JsonNode> ofKind(List<JsonNode> resources, String kind) {
        return resources.stream().filter(r -> kind.equals(r.at("/kind").asText())).toList();
    }

    /**
     * The environment-variable names of every property the application knows: the keys of application.properties (any
     * profile), the variables its expressions read, every @ConfigMapping property, and a few extension properties.
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
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.cabinet")) {
            if (type.isAnnotatedWith(ConfigMapping.class)) {
                String prefix = type.getAnnotationOfType(ConfigMapping.class).prefix();
                for (JavaMethod method : type.getMethods()) {
                    names.add(prefix + "." + method.getName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT));
                }
            }
        }
        Set<String> environment = names.stream().map(DeploymentManifestsTest::environmentName).collect(Collectors.toSet());
        environment.addAll(variables);
        return environment;
    }

    /** How SmallRye Config names a property in the environment: non-alphanumerics become '_', letters upper case. */
    private static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static Duration shutdownTimeout() throws IOException {
        Properties file = new Properties();
        try (var in = Files.newInputStream(PROPERTIES)) {
            file.load(in);
        }
        String value = file.getProperty("%prod.quarkus.shutdown.timeout");
        assertNotNull(value, "%prod.quarkus.shutdown.timeout is the drain time the grace periods must outlast");
        return Duration.parse("PT" + value.toUpperCase(Locale.ROOT));
    }
}
