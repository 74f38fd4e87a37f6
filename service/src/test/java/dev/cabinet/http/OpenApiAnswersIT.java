package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.cabinet.support.AnswerRecorder;
import dev.cabinet.support.NodeTools;

/**
 * The OpenAPI document tells the truth: every answer the over-the-wire tests received (written down by
 * {@link AnswerRecorder} while surefire ran them) is declared for its operation, with its status and media type, and
 * its body is valid against the declared schema, as ajv reads the document. An undeclared status or a drifting field
 * fails the build here. Runs after the tests (failsafe), on the document the build wrote.
 */
class OpenApiAnswersIT {

    private static final Path BUILT = Path.of("target", "openapi", "openapi.yaml");
    private static final Path CHECKER = Path.of("src", "test", "resources", "openapi-answers");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyAnswerTheTestsReceivedIsDeclaredAndValidAgainstTheDocument() throws Exception {
        ArrayNode answers = JSON.createArrayNode();
        if (Files.isDirectory(AnswerRecorder.FOLDER)) {
            try (var files = Files.list(AnswerRecorder.FOLDER)) {
                for (Path file : files.sorted().toList()) {
                    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                        answers.add(JSON.readTree(line));
                    }
                }
            }
        }
        assertFalse(answers.isEmpty(), "no answers under " + AnswerRecorder.FOLDER.toAbsolutePath()
                + ": the over-the-wire tests (surefire) write them; run them first");

        Path work = Files.createTempDirectory("cabinet-answers");
        JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(BUILT.toFile());
        Files.writeString(work.resolve("openapi.json"), JSON.writeValueAsString(document));
        Files.writeString(work.resolve("answers.json"), JSON.writeValueAsString(answers));
        Path installed = NodeTools.install(CHECKER);
        Files.copy(CHECKER.resolve("check-answers.mjs"), installed.resolve("check-answers.mjs"),
                StandardCopyOption.REPLACE_EXISTING);
        NodeTools.Result check = NodeTools.run(installed, List.of("node", "check-answers.mjs",
                work.resolve("openapi.json").toString(), work.resolve("answers.json").toString()), null);
        assertEquals(0, check.exit(), check.stderr());
        JsonNode report = JSON.readTree(check.stdout());

        TreeSet<String> unexercised = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            path.getValue().fieldNames().forEachRemaining(method -> {
                String name = method.toUpperCase() + " " + path.getKey();
                if (!report.path("operations").has(name)) {
                    unexercised.add(name);
                }
            });
        }
        List<String> problems = new ArrayList<>();
        report.path("problems").forEach(problem -> problems.add(problem.asText()));
        System.out.println("Answers checked against the OpenAPI document: " + answers.size() + " answers, "
                + report.path("operations").size() + " operations; not exercised over the wire: " + unexercised);
        assertTrue(problems.isEmpty(), problems.size() + " answers the document does not describe:\n  "
                + String.join("\n  ", problems));
    }
}
