package dev.cabinet.projection.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.eventlog.EventContract;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.support.EventCatalog;

/**
 * The published schemas mean the same to a producer in JavaScript as to Cabinet: ajv (strict mode, draft 2020-12,
 * documents parsed by {@code JSON.parse}, so numbers are doubles) gives the verdict Cabinet's validator gives on every
 * example and every mutation {@link EventContractTest} makes, for every current version. A superseded version is kept
 * as published; its known disagreement (ajv refuses {@code 19.99} under {@code multipleOf: 0.01}) is why v2 exists.
 */
class ForeignValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper STRICT = EventDecoder.strict(JSON);
    private static final Path SOURCES = Path.of("src/test/js/contract-validators");
    private static final Path INSTALL = Path.of("target/contract-validators");

    private static Map<String, EventType<?>> catalog;
    private static EventContract contract;

    record Case(String type, String json) {
    }

    @BeforeAll
    static void install() throws Exception {
        catalog = EventCatalog.all();
        contract = new EventContract(catalog.keySet(), JSON);
        Files.createDirectories(INSTALL);
        byte[] lock = Files.readAllBytes(SOURCES.resolve("package-lock.json"));
        Path installedLock = INSTALL.resolve("package-lock.json");
        if (!Files.isRegularFile(INSTALL.resolve("node_modules/ajv/package.json")) || !Files.exists(installedLock)
                || !Arrays.equals(lock, Files.readAllBytes(installedLock))) {
            Files.copy(SOURCES.resolve("package.json"), INSTALL.resolve("package.json"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.write(installedLock, lock);
            run(INSTALL, List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"));
        }
        Files.copy(SOURCES.resolve("validate.mjs"), INSTALL.resolve("validate.mjs"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void ajvAgreesWithCabinetOnEveryExampleAndMutationOfTheCurrentVersions() throws Exception {
        List<Case> cases = new ArrayList<>();
        for (EventType<?> type : catalog.values()) {
            ObjectNode example = (ObjectNode) contract.document(type.name()).path("examples").path(0);
            cases.add(new Case(type.name(), JSON.writeValueAsString(example)));
            for (EventContractTest.Mutation mutation : EventContractTest.mutationsOf(example, "")) {
                cases.add(new Case(type.name(), JSON.writeValueAsString(mutation.document())));
            }
        }
        List<String> ajv = ajv(cases);
        List<String> disagreements = new ArrayList<>();
        int superseded = 0;
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            List<String> cabinet = contract.violations(c.type(), STRICT.readTree(c.json()));
            if (cabinet.isEmpty() != (ajv.get(i) == null)) {
                if (catalog.get(c.type()).isSuperseded()) {
                    superseded++;
                } else {
                    disagreements.add(c.type() + " " + abbreviate(c.json()) + ": Cabinet " + cabinet + ", ajv "
                            + ajv.get(i));
                }
            }
        }
        System.out.printf("ajv: %d documents, %d disagreements on current versions, %d on superseded ones%n",
                cases.size(), disagreements.size(), superseded);
        assertTrue(cases.size() > 1000, "only " + cases.size() + " documents");
        assertEquals(List.of(), disagreements);
    }

    @Test
    void ajvTakesTheMoneyStringOfV2AndShowsWhyTheV1NumberWasReplaced() throws Exception {
        String order = "{\"customerId\":\"acme\",\"orderId\":\"O1\",\"orderDate\":\"2026-01-31\","
                + "\"placedAt\":\"2026-01-31T12:00:00.000Z\",\"total\":%s}";
        List<String> verdicts = ajv(List.of(
                new Case("cabinet.customer.order-placed.v2", order.formatted("\"19.99\"")),
                new Case("cabinet.customer.order-placed.v2", order.formatted("\"19.9\"")),
                new Case("cabinet.customer.order-placed.v2", order.formatted("19.99")),
                new Case("cabinet.customer.order-placed.v1", order.formatted("19.99")),
                new Case("cabinet.file.uploaded.v1", "{\"fileId\":\"f\",\"folderId\":\"d\",\"name\":\"n\","
                        + "\"size\":9223372036854775807,\"contentType\":\"t\",\"contentUrl\":\"u\","
                        + "\"uploadedAt\":\"2026-01-31T12:00:00.000Z\",\"ownerId\":\"o\"}")));
        assertNull(verdicts.get(0), "v2 takes \"19.99\"");
        assertNotNull(verdicts.get(1), "v2 wants exactly two decimals");
        assertNotNull(verdicts.get(2), "v2 refuses a number");
        assertNotNull(verdicts.get(3), "ajv refuses 19.99 under v1's multipleOf 0.01: " + verdicts.get(3));
        assertTrue(contract.violations("cabinet.customer.order-placed.v1",
                STRICT.readTree(order.formatted("19.99"))).isEmpty(), "Cabinet reads v1's 19.99 exactly");
        assertNotNull(verdicts.get(4), "a size beyond 2^53 - 1 is refused by ajv as by Cabinet");
    }

    private static List<String> ajv(List<Case> cases) throws Exception {
        Path input = Files.createTempFile(INSTALL.toAbsolutePath(), "cases", ".json");
        try {
            JSON.writeValue(input.toFile(), cases);
            String output = run(INSTALL, List.of("node", "validate.mjs", schemaFolder().toString(), input.toString()));
            List<String> verdicts = Arrays.asList(JSON.readValue(output, String[].class));
            assertEquals(cases.size(), verdicts.size());
            return verdicts;
        } finally {
            Files.deleteIfExists(input);
        }
    }

    private static Path schemaFolder() throws URISyntaxException {
        return Path.of(ForeignValidatorTest.class.getClassLoader().getResource(EventContract.FOLDER).toURI());
    }

    private static String run(Path dir, List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir.toAbsolutePath(), "out", ".txt");
        Path err = Files.createTempFile(dir.toAbsolutePath(), "err", ".txt");
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within 5 minutes");
            }
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), command + " failed: " + stderr);
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String abbreviate(String json) {
        return json.length() <= 200 ? json : json.substring(0, 190) + "…(" + json.length() + " chars)";
    }
}
