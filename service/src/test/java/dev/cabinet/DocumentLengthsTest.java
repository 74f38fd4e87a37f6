package dev.cabinet;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two pages a newcomer reads first stay short (issue 42): README.md is ten minutes, and docs/benchmarks.md holds
 * today's figures while the history goes to docs/benchmarks-history.md. Both grew past their limits once unnoticed.
 */
class DocumentLengthsTest {

    @ParameterizedTest
    @CsvSource({"README.md, 150, the depth belongs in docs/",
            "docs/benchmarks.md, 250, earlier runs move to docs/benchmarks-history.md"})
    void staysWithinItsLines(String document, int limit, String remedy) throws IOException {
        long lines = Files.readAllLines(Path.of("..").resolve(document)).size();
        assertTrue(lines <= limit, document + " has " + lines + " lines, over " + limit + ": " + remedy);
    }
}
