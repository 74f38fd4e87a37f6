package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * docs/key-plan.md must be exactly what the key plan in code renders, and README.md's access pattern table must be
 * the same as its; -Dcabinet.docs.write=true rewrites both.
 */
class KeyPlanDocumentTest {

    private static final Path DOCUMENT = Path.of("..", "docs", "key-plan.md");
    private static final Path README = Path.of("..", "README.md");
    private static final String START = "<!-- access-patterns:start (generated from the key plan) -->\n";
    private static final String END = "<!-- access-patterns:end -->";
    private static final String REGENERATE = "./mvnw test -Dtest=KeyPlanDocumentTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dcabinet.docs.write=true";

    @Test
    void theKeyPlanDocumentMatchesTheKeyPlanInCode() throws IOException {
        String rendered = KeyPlanDocument.render("cabinet");
        if (Boolean.getBoolean("cabinet.docs.write")) {
            Files.createDirectories(DOCUMENT.getParent());
            Files.writeString(DOCUMENT, rendered, StandardCharsets.UTF_8);
        }
        assertEquals(rendered, Files.readString(DOCUMENT, StandardCharsets.UTF_8),
                "docs/key-plan.md is stale: regenerate it with " + REGENERATE);
    }

    @Test
    void theReadmeListsTheAccessPatternsOfTheKeyPlan() throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        assertTrue(start >= 0 && end > start, "README.md lacks the generated access pattern table markers");
        String table = KeyPlanDocument.patternsTable();
        if (Boolean.getBoolean("cabinet.docs.write")) {
            readme = readme.substring(0, start + START.length()) + table + readme.substring(end);
            Files.writeString(README, readme, StandardCharsets.UTF_8);
        }
        assertEquals(table, readme.substring(start + START.length(), readme.indexOf(END)),
                "README.md's access pattern table is stale: regenerate it with " + REGENERATE);
    }
}
