package dev.cabinet.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.support.NodeTools;

/**
 * Strimzi's resources checked against the schemas of the release that runs them: Strimzi 1.0's CRDs, compiled by
 * kubernetes-models (src/test/resources/strimzi-schemas, installed with npm ci once per lockfile), asked through Node.
 */
final class StrimziResources {

    /** The only API Strimzi 1.0 and later serve (0.49 to 0.51 serve it beside v1beta2). */
    static final String API_VERSION = "kafka.strimzi.io/v1";

    private static final Path SCHEMAS = Path.of("src", "test", "resources", "strimzi-schemas");
    private static final String SCRIPT = "validate.mjs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private StrimziResources() {
    }

    /** Whether a resource is one of Strimzi's (any of its API groups). */
    static boolean isStrimzis(JsonNode resource) {
        return resource.path("apiVersion").asText().contains("strimzi.io/");
    }

    /**
     * What the schemas say of each resource, by "kind name", in the order given: an empty list for a valid one. A
     * resource of an API version Strimzi 1.0 does not serve is refused as such.
     */
    static Map<String, List<String>> problems(List<JsonNode> resources) throws Exception {
        Path installed = NodeTools.install(SCHEMAS);
        // The script imports the models by name, so it runs from the folder that holds node_modules; moved into
        // place whole, so that a test JVM running it meanwhile never reads half of it.
        Path copy = Files.createTempFile(installed, SCRIPT, ".tmp");
        Files.copy(SCHEMAS.resolve(SCRIPT), copy, StandardCopyOption.REPLACE_EXISTING);
        Files.move(copy, installed.resolve(SCRIPT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        NodeTools.Result node = NodeTools.run(installed, List.of("node", SCRIPT), JSON.writeValueAsString(resources));
        if (node.exit() != 0) {
            throw new IllegalStateException("the schema check failed:\n" + node.stdout() + node.stderr());
        }
        Map<String, List<String>> problems = new LinkedHashMap<>();
        for (JsonNode answer : JSON.readTree(node.stdout())) {
            problems.put(answer.path("resource").asText(),
                    List.of(JSON.convertValue(answer.path("problems"), String[].class)));
        }
        return problems;
    }
}
