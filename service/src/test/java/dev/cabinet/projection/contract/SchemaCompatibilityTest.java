package dev.cabinet.projection.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The compatibility gate of the event contract (issue 40, item 1), offline: no schema registry, only the schemas in
 * the contract and the lock of each as it was first published.
 * <ul>
 * <li>A published schema may change only in ways every reader survives, both ways ({@link SchemaCompatibility}):
 * descriptions, examples, an optional field added or removed. Its lock in {@code src/test/resources/contract-lock}
 * is the schema as published; a new schema is locked once with {@code -Dcabinet.contract.lock=true}, and a lock is
 * never rewritten. A breaking change needs a new version of the type.</li>
 * <li>Each version of a type is checked against every earlier version: FULL_TRANSITIVE unless the newer version's
 * schema declares a weaker mode with its reason ({@code x-cabinet-compatibility}: BACKWARD, FORWARD or NONE).</li>
 * </ul>
 */
class SchemaCompatibilityTest {

    private static final Path CONTRACT = Path.of("src", "main", "resources", "META-INF", "resources", "contract",
            "events");
    private static final Path LOCK = Path.of("src", "test", "resources", "contract-lock");
    private static final Pattern VERSIONED = Pattern.compile("(.+)\\.v(\\d+)\\.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyPublishedSchemaReadsAsItsLockBothWays() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path schema : schemas()) {
            Path lock = LOCK.resolve(schema.getFileName());
            if (!Files.exists(lock)) {
                if (Boolean.getBoolean("cabinet.contract.lock")) {
                    Files.createDirectories(LOCK);
                    Files.copy(schema, lock);
                    continue;
                }
                problems.add(schema.getFileName() + " is not locked: once published, lock it with "
                        + "-Dcabinet.contract.lock=true");
                continue;
            }
            SchemaCompatibility.breaks(read(lock), read(schema)).forEach(problem -> problems.add(schema.getFileName()
                    + ", changed since it was published: " + problem));
        }
        assertEquals(List.of(), problems, "a published event schema may only change in ways every reader survives; "
                + "a breaking change is a new version of the type (docs/events.md)");
    }

    @Test
    void everyVersionOfATypeIsCheckedAgainstEveryEarlierOneInItsDeclaredMode() throws IOException {
        Map<String, Map<Integer, Path>> versions = new TreeMap<>();
        for (Path schema : schemas()) {
            Matcher name = VERSIONED.matcher(schema.getFileName().toString());
            assertTrue(name.matches(), schema + " is named <type>.v<N>.json");
            versions.computeIfAbsent(name.group(1), type -> new TreeMap<>()).put(Integer.parseInt(name.group(2)),
                    schema);
        }
        List<String> problems = new ArrayList<>();
        int pairs = 0;
        for (Map<Integer, Path> ofType : versions.values()) {
            List<Path> ordered = new ArrayList<>(ofType.values());
            for (int newer = 1; newer < ordered.size(); newer++) {
                JsonNode newerSchema = read(ordered.get(newer));
                String mode = declaredMode(ordered.get(newer), newerSchema, problems);
                for (int older = 0; older < newer; older++) {
                    pairs++;
                    for (String problem : SchemaCompatibility.breaks(read(ordered.get(older)), newerSchema)) {
                        boolean allowed = mode.equals("NONE")
                                || mode.equals("BACKWARD") && problem.endsWith(SchemaCompatibility.FORWARD)
                                || mode.equals("FORWARD") && problem.endsWith(SchemaCompatibility.BACKWARD);
                        if (!allowed) {
                            problems.add(ordered.get(newer).getFileName() + " against " + ordered.get(older)
                                    .getFileName() + " (" + mode + "): " + problem);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(pairs > 0, "the contract has a type with two versions (order-placed), so the check ran");
    }

    @Test
    void theGateTellsWhatChangedAndWhichReadersBreak() throws IOException {
        JsonNode older = JSON.readTree("""
                {"type":"object","required":["id"],"additionalProperties":true,"properties":{
                 "id":{"type":"string","pattern":"^[a-z]+$","maxLength":10},
                 "role":{"type":"string","enum":["member","admin"]},
                 "count":{"type":"integer","minimum":0}}}""");
        assertEquals(List.of(), SchemaCompatibility.breaks(older, older));
        JsonNode described = JSON.readTree(older.toString().replace("\"maxLength\":10", "\"maxLength\":10,"
                + "\"description\":\"an id\"").replace("\"properties\":{", "\"properties\":{\"note\":{\"type\":"
                + "\"string\"},"));
        assertEquals(List.of(), SchemaCompatibility.breaks(older, described), "a description or an optional field");

        assertEquals(List.of("name: now required: " + SchemaCompatibility.BACKWARD), SchemaCompatibility.breaks(older,
                JSON.readTree(older.toString().replace("[\"id\"]", "[\"id\",\"name\"]"))));
        assertEquals(List.of("id: maxLength 10 became 5: " + SchemaCompatibility.BACKWARD), SchemaCompatibility
                .breaks(older, JSON.readTree(older.toString().replace("\"maxLength\":10", "\"maxLength\":5"))));
        assertEquals(List.of("id: maxLength 10 became 20: " + SchemaCompatibility.FORWARD), SchemaCompatibility
                .breaks(older, JSON.readTree(older.toString().replace("\"maxLength\":10", "\"maxLength\":20"))));
        assertEquals(List.of("role: enum [admin, member] became [admin, member, owner]: "
                + SchemaCompatibility.FORWARD), SchemaCompatibility.breaks(older, JSON.readTree(older.toString()
                        .replace("\"admin\"]", "\"admin\",\"owner\"]"))));
        List<String> retyped = SchemaCompatibility.breaks(older, JSON.readTree(older.toString()
                .replace("\"type\":\"integer\"", "\"type\":\"string\"")));
        assertEquals(2, retyped.size(), "a type change breaks both ways: " + retyped);
        assertTrue(retyped.get(0).startsWith("count: type [integer] became [string]"), retyped.get(0));
        assertEquals(List.of("count: type [integer] became [integer, number]: " + SchemaCompatibility.FORWARD),
                SchemaCompatibility.breaks(older, JSON.readTree(older.toString().replace("\"type\":\"integer\"",
                        "\"type\":\"number\""))));
        assertEquals(1, SchemaCompatibility.breaks(older, JSON.readTree(older.toString().replace("^[a-z]+$",
                "^[a-z0-9]+$"))).size(), "a pattern cannot be compared, so any change of one is a break");
    }

    /** The newer version's declared mode; a weaker mode than FULL_TRANSITIVE must give its reason. */
    private static String declaredMode(Path path, JsonNode schema, List<String> problems) {
        JsonNode declared = schema.path("x-cabinet-compatibility");
        if (declared.isMissingNode()) {
            return "FULL";
        }
        String mode = declared.path("mode").asText();
        if (!List.of("BACKWARD", "FORWARD", "NONE").contains(mode) || declared.path("reason").asText().isBlank()) {
            problems.add(path.getFileName() + ": x-cabinet-compatibility needs a mode (BACKWARD, FORWARD or NONE) and "
                    + "a reason");
        }
        return mode;
    }

    private static List<Path> schemas() throws IOException {
        try (Stream<Path> files = Files.list(CONTRACT)) {
            return files.filter(file -> file.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static JsonNode read(Path path) throws IOException {
        return JSON.readTree(Files.readString(path, StandardCharsets.UTF_8));
    }
}
