package dev.cabinet.table;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.GeneratedFiles;

/**
 * docs/key-plan.md must be exactly what the key plan in code renders, and README.md's access pattern table must be
 * the same as its; a run that finds either stale rewrites it.
 */
class KeyPlanDocumentTest {

    private static final Path DOCUMENT = Path.of("..", "docs", "key-plan.md");
    private static final Path README = Path.of("..", "README.md");
    private static final String START = "<!-- access-patterns:start (generated from the key plan) -->\n";
    private static final String END = "<!-- access-patterns:end -->";

    @Test
    void theKeyPlanDocumentMatchesTheKeyPlanInCode() {
        GeneratedFiles.check(DOCUMENT, KeyPlanDocument.render("cabinet"));
    }

    @Test
    void theReadmeListsTheAccessPatternsOfTheKeyPlan() {
        GeneratedFiles.checkSection(README, START, END, KeyPlanDocument.patternsTable());
    }
}
