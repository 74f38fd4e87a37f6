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
        int from = committed == null ? -1 : committed.indexOf(start);
        int to = committed == null ? -1 : committed.indexOf(end, Math.max(from, 0));
        assertTrue(from >= 0 && to > from, file + " lacks the markers of its generated section: " + start.strip()
                + " ... " + end.strip());
        String section = committed.substring(from + start.length(), to);
        if (!generated.equals(section)) {
            write(file, committed.substring(0, from + start.length()) + generated + committed.substring(to));
        }
        assertEquals(generated, section, stale(file));
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
