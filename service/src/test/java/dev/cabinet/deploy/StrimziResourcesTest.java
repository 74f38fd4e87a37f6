package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.eventlog.Topics;

/**
 * Every Strimzi resource the overlays deploy (the KafkaTopics and KafkaUsers both apply, the local overlay's Kafka
 * cluster and node pool) is in the v1 API and valid by the schemas of Strimzi 1.0, which serves nothing else: rendered
 * with {@code kubectl kustomize} as they would be applied. And the check refuses what Strimzi 1.0 would.
 */
class StrimziResourcesTest {

    @ParameterizedTest
    @ValueSource(strings = { "local", "prod" })
    void everyStrimziResourceIsValidInTheV1Api(String overlay) throws Exception {
        List<JsonNode> strimzis = DeploymentManifestsTest.render(overlay).stream()
                .filter(StrimziResources::isStrimzis).toList();
        Map<String, Integer> kinds = new TreeMap<>();
        strimzis.forEach(resource -> kinds.merge(resource.path("kind").asText(), 1, Integer::sum));
        Map<String, Integer> expected = new TreeMap<>(Map.of("KafkaTopic", Topics.ALL.size() + 1,
                "KafkaUser", GeneratedManifests.DEPLOYED_ROLES.size()));
        if (overlay.equals("local")) {
            expected.putAll(Map.of("Kafka", 1, "KafkaNodePool", 1));
        }
        assertEquals(expected, kinds, overlay + " deploys these Strimzi resources");
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        StrimziResources.problems(strimzis).forEach((resource, problems) -> {
            if (!problems.isEmpty()) {
                invalid.put(resource, problems);
            }
        });
        assertEquals(Map.of(), invalid, overlay + ": what Strimzi 1.0's schemas refuse");
    }

    /** A wrong type, an API version Strimzi 1.0 no longer serves and a KafkaUser in v1beta2's form are refused. */
    @Test
    void theCheckRefusesWhatStrimziRefuses() throws Exception {
        JsonNode topic = DeploymentManifestsTest.ofKind(DeploymentManifestsTest.render("prod"), "KafkaTopic").get(0);
        ObjectNode wrongType = topic.deepCopy();
        ((ObjectNode) wrongType.get("spec")).put("partitions", "six");
        ((ObjectNode) wrongType.get("metadata")).put("name", "wrong-type");
        ObjectNode oldApi = topic.deepCopy();
        oldApi.put("apiVersion", "kafka.strimzi.io/v1beta2");
        ((ObjectNode) oldApi.get("metadata")).put("name", "old-api");
        ObjectNode oldAcl = (ObjectNode) new ObjectMapper().readTree("""
                {"apiVersion": "kafka.strimzi.io/v1", "kind": "KafkaUser",
                 "metadata": {"name": "old-acl", "labels": {"strimzi.io/cluster": "cabinet"}},
                 "spec": {"authentication": {"type": "scram-sha-512"}, "authorization": {"type": "simple",
                   "acls": [{"resource": {"type": "topic", "name": "cabinet.posts"}, "operation": "Write"}]}}}
                """);
        List<JsonNode> wrong = new ArrayList<>(List.of(wrongType, oldApi, oldAcl));
        Map<String, List<String>> problems = StrimziResources.problems(wrong);
        assertEquals(List.of("KafkaTopic wrong-type", "KafkaTopic old-api", "KafkaUser old-acl"),
                List.copyOf(problems.keySet()));
        assertTrue(problems.get("KafkaTopic wrong-type").toString().contains("/spec/partitions must be integer"),
                problems.toString());
        assertTrue(problems.get("KafkaTopic old-api").toString().contains("not served"), problems.toString());
        assertTrue(problems.get("KafkaUser old-acl").toString().contains("operations"), problems.toString());
        problems.values().forEach(each -> assertFalse(each.isEmpty()));
    }
}
