package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.cabinet.support.GeneratedFiles;
import dev.cabinet.support.NodeTools;

/**
 * docs/openapi.yaml is the document the production build writes (target/openapi, see application.properties), and
 * what clients in other languages need from it holds: Redocly CLI's recommended rules find no error, Spectral's OpenAPI
 * rules nothing, and every schema
 * pattern is an ECMAScript regular expression that accepts exactly what the server accepts. A run that finds the
 * committed document stale rewrites it.
 */
class OpenApiDocumentIT {

    private static final Path BUILT = Path.of("target", "openapi", "openapi.yaml");
    private static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");
    private static final Path LINT = Path.of("src", "test", "resources", "openapi-lint");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theCommittedDocumentIsTheOneTheBuildWrites() throws Exception {
        assertTrue(Files.isRegularFile(BUILT), BUILT.toAbsolutePath() + " is missing: the build writes it at package");
        GeneratedFiles.check(DOCUMENT, Files.readString(BUILT, StandardCharsets.UTF_8));
    }

    @Test
    void redoclysRecommendedRulesFindNoError() throws Exception {
        Path redocly = NodeTools.install(LINT).resolve("node_modules/@redocly/cli/bin/cli.js");
        NodeTools.Result lint = NodeTools.run(LINT, List.of("node", redocly.toString(), "lint",
                "--config", "redocly.yaml", "--format", "json", BUILT.toAbsolutePath().toString()), null);
        JsonNode report = JSON.readTree(lint.stdout());
        List<String> problems = new ArrayList<>();
        report.path("problems").forEach(problem -> problems.add(problem.path("severity").asText() + " "
                + problem.path("ruleId").asText() + " at " + problem.at("/location/0/pointer").asText() + ": "
                + problem.path("message").asText()));
        System.out.println("Redocly lint of the OpenAPI document: " + report.path("totals") + "\n  "
                + String.join("\n  ", problems));
        assertEquals(0, report.at("/totals/errors").asInt(-1), String.join("\n", problems) + lint.stderr());
    }

    /**
     * Spectral's OpenAPI ruleset ({@code spectral:oas}, one rule off with its reason in spectral.yaml) finds nothing:
     * no error and no warning (every operation described and tagged, the tags declared, a contact).
     */
    @Test
    void spectralsOpenApiRulesFindNothing() throws Exception {
        Path spectral = NodeTools.install(LINT).resolve("node_modules/@stoplight/spectral-cli/dist/index.js");
        NodeTools.Result lint = NodeTools.run(LINT, List.of("node", spectral.toString(), "lint", "--ruleset",
                "spectral.yaml", "--format", "json", "--fail-severity", "hint", BUILT.toAbsolutePath().toString()),
                null);
        JsonNode report = JSON.readTree(lint.stdout().substring(lint.stdout().indexOf('[')));
        List<String> problems = new ArrayList<>();
        report.forEach(problem -> problems.add(problem.path("code").asText() + " at "
                + String.join("/", JSON.convertValue(problem.path("path"), String[].class)) + ": "
                + problem.path("message").asText()));
        System.out.println("Spectral lint of the OpenAPI document: " + problems.size() + " problems\n  "
                + String.join("\n  ", problems));
        assertEquals(List.of(), problems, lint.stderr());
    }

    /**
     * Every pattern compiles in Node (with the {@code u} flag, as JSON Schema validators such as ajv use it), and
     * accepts or refuses each sample exactly as the server does: Java's {@code matches}, as Bean Validation's
     * {@code @Pattern}, or for {@code @NotBlank} Hibernate Validator's test (what is left after {@code trim()}).
     */
    @Test
    void everyPatternMeansInEcmaScriptWhatItMeansOnTheServer() throws Exception {
        TreeSet<String> patterns = new TreeSet<>();
        collectPatterns(new ObjectMapper(new YAMLFactory()).readTree(BUILT.toFile()), patterns);
        assertTrue(patterns.size() >= 8, "found only " + patterns);
        List<String> samples = List.of("", " ", "\u00A0", "\u2028", "John", "Jane D.", "café ☕", "a\u0001b",
                "tab\there", "two\nlines", "trailing\n", "del\u007F", "a/b", "application/pdf",
                "text/plain; charset=utf-8", "https://example.com/a.png", "https://example.com/a b", "http://x\u00A0y",
                "admin", "xadminx", "paid", "john_doe-1");
        String script = """
                const {patterns, samples} = JSON.parse(require('fs').readFileSync(0, 'utf8'));
                const answers = {};
                for (const p of patterns) {
                  try { const r = new RegExp(p, 'u'); answers[p] = samples.map(s => r.test(s)); }
                  catch (e) { answers[p] = String(e); }
                }
                console.log(JSON.stringify(answers));
                """;
        NodeTools.Result node = NodeTools.run(Path.of("."), List.of("node", "-e", script),
                JSON.writeValueAsString(Map.of("patterns", patterns, "samples", samples)));
        assertEquals(0, node.exit(), node.stderr());
        JsonNode answers = JSON.readTree(node.stdout());
        List<String> differences = new ArrayList<>();
        for (String pattern : patterns) {
            JsonNode answer = answers.get(pattern);
            if (!answer.isArray()) {
                differences.add(pattern + " is no ECMAScript regular expression: " + answer.asText());
                continue;
            }
            Pattern java = Pattern.compile(pattern);
            for (int i = 0; i < samples.size(); i++) {
                boolean server = pattern.equals(OpenApiContract.NOT_BLANK) ? !samples.get(i).trim().isEmpty()
                        : java.matcher(samples.get(i)).matches();
                if (server != answer.get(i).asBoolean()) {
                    differences.add(pattern + " on " + JSON.writeValueAsString(samples.get(i)) + ": server "
                            + server + ", ECMAScript " + answer.get(i).asBoolean());
                }
            }
        }
        assertEquals(List.of(), differences);
    }

    private static void collectPatterns(JsonNode node, TreeSet<String> patterns) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (field.getKey().equals("pattern") && field.getValue().isTextual()) {
                    patterns.add(field.getValue().asText());
                } else {
                    collectPatterns(field.getValue(), patterns);
                }
            });
        } else if (node.isArray()) {
            node.forEach(element -> collectPatterns(element, patterns));
        }
    }
}
