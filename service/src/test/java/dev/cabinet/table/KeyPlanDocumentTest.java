package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** docs/key-plan.md must be exactly what the key plan in code renders; -Dcabinet.docs.write=true rewrites it. */
class KeyPlanDocumentTest {

    private static final Path DOCUMENT = Path.of("..", "docs", "key-plan.md");

    @Test
    void theKeyPlanDocumentMatchesTheKeyPlanInCode() throws IOException {
        String rendered = KeyPlanDocument.render("cabinet");
        if (Boolean.getBoolean("cabinet.docs.write")) {
            Files.createDirectories(DOCUMENT.getParent());
            Files.writeString(DOCUMENT, rendered, StandardCharsets.UTF_8);
        }
        assertEquals(rendered, Files.readString(DOCUMENT, StandardCharsets.UTF_8),
                "docs/key-plan.md is stale: regenerate it with "
                        + "./mvnw test -Dtest=KeyPlanDocumentTest -Dsurefire.failIfNoSpecifiedTests=false -Dcabinet.docs.write=true");
    }
}
