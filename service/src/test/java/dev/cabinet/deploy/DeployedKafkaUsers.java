package dev.cabinet.deploy;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cabinet.role.Role;

/**
 * The production overlay's Kafka users and connection settings, carried out on a test broker: each rendered KafkaUser
 * made as Strimzi's User Operator makes it (SCRAM-SHA-512 credentials, its ACLs as the broker's bindings for {@code
 * User:<name>}, the JAAS line its Secret holds), and each role's {@code KAFKA_} variables as its Deployment sets them.
 */
public final class DeployedKafkaUsers {

    private static final SecureRandom RANDOM = new SecureRandom();

    private DeployedKafkaUsers() {
    }

    /**
     * Makes every KafkaUser of the prod overlay on the broker behind {@code adminBootstrap} (a super user's listener),
     * and answers each user's Secret as Strimzi writes it: its {@code sasl.jaas.config} by user name.
     */
    public static Map<String, String> install(String adminBootstrap) throws Exception {
        List<JsonNode> users = DeploymentManifestsTest.ofKind(DeploymentManifestsTest.render("prod"), "KafkaUser");
        Map<String, String> jaas = new TreeMap<>();
        List<UserScramCredentialUpsertion> credentials = new ArrayList<>();
        List<AclBinding> bindings = new ArrayList<>();
        for (JsonNode user : users) {
            String name = user.at("/metadata/name").asText();
            String password = HexFormat.of().formatHex(randomBytes());
            credentials.add(new UserScramCredentialUpsertion(name,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password));
            jaas.put(name, "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + name
                    + "\" password=\"" + password + "\";");
            for (JsonNode acl : user.at("/spec/authorization/acls")) {
                JsonNode resource = acl.at("/resource");
                ResourcePattern pattern = new ResourcePattern(
                        ResourceType.fromString(kafkaName(resource.at("/type").asText())),
                        resource.at("/type").asText().equals("cluster") ? "kafka-cluster" : resource.at("/name").asText(),
                        resource.path("patternType").asText("literal").equals("prefix") ? PatternType.PREFIXED
                                : PatternType.LITERAL);
                for (JsonNode operation : acl.at("/operations")) {
                    bindings.add(new AclBinding(pattern, new AccessControlEntry("User:" + name,
                            acl.path("host").asText("*"), AclOperation.fromString(kafkaName(operation.asText())),
                            acl.path("type").asText("allow").equals("deny") ? AclPermissionType.DENY
                                    : AclPermissionType.ALLOW)));
                }
            }
        }
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, adminBootstrap);
        try (Admin admin = Admin.create(config)) {
            admin.alterUserScramCredentials(List.copyOf(credentials)).all().get(30, TimeUnit.SECONDS);
            admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
        }
        return jaas;
    }

    /**
     * The {@code KAFKA_} variables the prod overlay gives a role's pod (its ConfigMap's, and its own entries with the
     * Secrets' values from {@code secrets}, by Secret name), with the broker's address and the trusted certificate's
     * place replaced by the test's.
     */
    public static Map<String, String> podEnvironment(Role role, Map<String, String> secrets, String bootstrap,
            Path certificate) throws Exception {
        List<JsonNode> resources = DeploymentManifestsTest.render("prod");
        JsonNode container = DeploymentManifestsTest.named(resources, "Deployment", "cabinet-" + role.label())
                .at("/spec/template/spec/containers/0");
        // The container's environment as the manifests test reads it, with the Secrets' values in place of the
        // entries that reference them.
        Map<String, String> env = new HashMap<>(DeploymentManifestsTest.environment(resources, container));
        for (JsonNode variable : container.at("/env")) {
            JsonNode secret = variable.at("/valueFrom/secretKeyRef");
            if (!secret.isMissingNode()) {
                env.put(variable.at("/name").asText(), secrets.get(secret.at("/name").asText()));
            }
        }
        env.keySet().removeIf(name -> !name.startsWith("KAFKA_"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("KAFKA_SSL_TRUSTSTORE_LOCATION", certificate.toString());
        return env;
    }

    /** Strimzi's name of an operation or resource type as Kafka's: {@code IdempotentWrite} is IDEMPOTENT_WRITE. */
    static String kafkaName(String strimzi) {
        return strimzi.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** The client settings a pod's {@code KAFKA_} variables make, as the Kafka extension reads them. */
    public static Map<String, Object> clientSettings(Map<String, String> podEnvironment) {
        Map<String, Object> settings = new HashMap<>();
        podEnvironment.forEach((name, value) -> settings.put(
                name.substring("KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.'), value));
        return settings;
    }
}
