package dev.cabinet.deploy;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The prod overlay's alerts watch series that exist: every metric an alert expression names (read from the rendered
 * PrometheusRule) is on this application's /q/metrics after a small workload, and promtool, where installed (always
 * in CI), checks the rules and runs their unit tests (alert-rules-test.yaml: input series, expected alerts).
 */
@QuarkusTest
class AlertRulesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String UNIT_TESTS = "alert-rules-test.yaml";
    /** PromQL words that are not metric names: operators, modifiers, aggregation clauses. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "and", "or", "unless", "offset", "bool", "inf", "nan");

    @Test
    void everyMetricAnAlertNamesIsOnTheMetricsEndpointAfterAWorkload() throws Exception {
        Map<String, String> alerts = alerts();
        assertFalse(alerts.isEmpty());
        String user = newUserId();
        register(user, "Watched");
        awaitOk("/users/" + user).body("name", Matchers.equalTo("Watched"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            Set<String> exposed = exposedMetricNames(
                    given().get("/q/metrics").then().statusCode(200).extract().asString());
            for (Map.Entry<String, String> alert : alerts.entrySet()) {
                Set<String> named = metricNames(alert.getValue());
                assertFalse(named.isEmpty(), alert.getKey() + " names no metric: " + alert.getValue());
                named.removeAll(exposed);
                assertEquals(Set.of(), named, alert.getKey() + " names metrics the application does not expose");
            }
        });
    }

    /**
     * CabinetProjectorGroupEmpty leaves out the file-objects consumer by its client id, which must be the one the
     * application gives it: otherwise its partitions would keep the alert quiet while the projector holds none.
     */
    @Test
    void theFileObjectsConsumerCarriesTheClientIdTheProjectorAlertLeavesOut() {
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            List<String> assigned = given().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                    .filter(line -> line.startsWith("kafka_consumer_coordinator_assigned_partitions{")).toList();
            String fileObjects = ".*client_id=\"kafka-consumer-file-objects[^\"]*\".*";
            String others = ".*client_id=\"(?!kafka-consumer-file-objects)[^\"]*\".*";
            assertTrue(assigned.stream().anyMatch(line -> line.matches(fileObjects)),
                    "the file-objects consumer's series: " + assigned);
            assertTrue(assigned.stream().anyMatch(line -> line.matches(others)),
                    "the projector's consumers' series: " + assigned);
        });
    }

    @Test
    void metricNamesAreReadOutOfPromQl() {
        assertEquals(Set.of("a_total", "b_seconds_count", "c"), metricNames("sum by (topic, le) (increase(a_total{x=\"y"
                + " or z\",w!~\"v|u\"}[10m] offset 5m)) / on(job) group_left(pod) rate(b_seconds_count[1m:30s]) > 0.5"
                + " or absent(c) unless vector(1) > bool 2"));
    }

    @Test
    void promtoolChecksTheRulesAndEveryAlertPassesItsUnitTests() throws Exception {
        if (!promtoolInstalled()) {
            if ("true".equals(System.getenv("CI"))) {
                fail("promtool is missing: .ci/run installs Debian's prometheus package, which ships it");
            }
            Assumptions.abort("promtool is not installed (Debian package prometheus); CI installs it");
        }
        Path dir = Files.createTempDirectory("cabinet-alert-rules");
        JsonNode spec = rule().at("/spec");
        Files.writeString(dir.resolve("rules.yaml"), YAML.writeValueAsString(spec), StandardCharsets.UTF_8);
        String unitTests;
        try (InputStream in = AlertRulesTest.class.getResourceAsStream(UNIT_TESTS)) {
            unitTests = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Files.writeString(dir.resolve(UNIT_TESTS), unitTests, StandardCharsets.UTF_8);

        Set<String> tested = new TreeSet<>();
        YAML.readTree(unitTests).at("/tests").forEach(test -> test.at("/alert_rule_test").forEach(check -> {
            if (check.at("/exp_alerts").size() > 0) {
                tested.add(check.at("/alertname").asText());
            }
        }));
        assertEquals(new TreeSet<>(alerts().keySet()), tested, "every alert has a unit test in which it fires");

        run(dir, "promtool", "check", "rules", "rules.yaml");
        run(dir, "promtool", "test", "rules", UNIT_TESTS);
    }

    /** The alerts of the prod overlay's PrometheusRule: name and expression. */
    private static Map<String, String> alerts() throws Exception {
        Map<String, String> alerts = new LinkedHashMap<>();
        rule().at("/spec/groups").forEach(group -> group.at("/rules").forEach(rule -> {
            if (rule.has("alert")) {
                alerts.put(rule.at("/alert").asText(), rule.at("/expr").asText());
            }
        }));
        return alerts;
    }

    private static JsonNode rule() throws Exception {
        List<JsonNode> rules = DeploymentManifestsTest.ofKind(DeploymentManifestsTest.render("prod"), "PrometheusRule");
        assertEquals(1, rules.size(), "the prod overlay has one PrometheusRule");
        return rules.get(0);
    }

    /**
     * The metric names a PromQL expression selects: identifiers outside strings, label matchers, ranges and
     * by/on/without lists that are not function calls, keywords or numbers.
     */
    static Set<String> metricNames(String expression) {
        String bare = expression.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\boffset\\s+\\w+", " ");
        Set<String> names = new TreeSet<>();
        Matcher identifier = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(bare);
        while (identifier.find()) {
            String word = identifier.group();
            boolean partOfCall = identifier.end() < bare.length()
                    && bare.substring(identifier.end()).stripLeading().startsWith("(");
            if (!partOfCall && !KEYWORDS.contains(word.toLowerCase()) && !word.matches("\\d.*")) {
                names.add(word);
            }
        }
        return names;
    }

    /** The metric names of a Prometheus text exposition (sample lines, not comments). */
    private static Set<String> exposedMetricNames(String exposition) {
        return exposition.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toSet());
    }

    private static boolean promtoolInstalled() {
        try {
            Process version = new ProcessBuilder("promtool", "--version").redirectErrorStream(true).start();
            version.getInputStream().readAllBytes();
            return version.waitFor(30, TimeUnit.SECONDS) && version.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static void run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", command) + " failed:\n" + output);
    }
}
