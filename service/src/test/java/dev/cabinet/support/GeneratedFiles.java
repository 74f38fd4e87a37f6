package dev.cabinet.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A committed file, or a marked section of one, that the build generates from the code (docs/key-plan.md, the IAM
 * policies, docs/openapi.yaml, ...): a run that finds it stale writes what the code renders and fails, so that no one
 * edits it by hand, the build itself regenerates it, and a stale copy never lands (CI's clean clone fails on it).
 */
public final class GeneratedFiles {

    private GeneratedFiles() {
    }

    /** {@code file} must be {@code generated}; when it is not, it is rewritten and the test fails. */
    public static void check(Path file, String generated) {
        String committed = read(file);
        if (!generated.equals(committed)) {
            write(file, generated);
        }
        assertEquals(generated, committed, stale(file));
    }

    /**
     * Every file of {@code generated} must hold its content; each stale one is rewritten (all of them, not only the
     * first), then the test fails naming them.
     */
    public static void checkAll(Map<Path, String> generated) {
        List<String> stale = new ArrayList<>();
        generated.forEach((file, content) -> {
            if (!content.equals(read(file))) {
                write(file, content);
                stale.add(stale(file));
            }
        });
        assertEquals(List.of(), stale);
    }

    /**
     * The section of {@code file} between the line {@code start} and {@code end} must be {@code generated}; when it is
     * not, the section is rewritten and the test fails.
     */
    public static void checkSection(Path file, String start, String end, String generated) {
        String committed = read(file);
        String rewritten = withSection(file, committed, start, end, generated);
        if (!rewritten.equals(committed)) {
            write(file, rewritten);
        }
        assertEquals(committed, rewritten, stale(file));
    }

    /**
     * {@code document} (the content of {@code file}) with the section between the line {@code start} and {@code end}
     * replaced by {@code generated}; fails when the marker lines are missing.
     */
    public static String withSection(Path file, String document, String start, String end, String generated) {
        int from = document == null ? -1 : document.indexOf(start);
        int to = from < 0 ? -1 : document.indexOf(end, from + start.length());
        assertTrue(from >= 0 && to > from, file + " lacks the markers of its generated section: " + start.strip()
                + " ... " + end.strip());
        return document.substring(0, from + start.length()) + generated + document.substring(to);
    }

    private static String stale(Path file) {
        return file.normalize() + " was stale: this run has rewritten it from the code; review the change and commit it";
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String content) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
