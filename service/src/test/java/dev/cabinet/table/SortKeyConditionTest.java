package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A condition narrowed to the keys up to a walk's first page's last key ({@link SortKeyCondition#upTo}) matches exactly
 * the keys the condition matched that are not after it.
 */
class SortKeyConditionTest {

    private static final List<String> KEYS = List.of("A", "AUTHOR#", "AUTHOR#2026-01-01#a", "AUTHOR#2026-01-01#b",
            "AUTHOR#2026-01-02#a", "AUTHOR#2026-01-02#a\0", "AUTHOR#2026-01-03", "AUTHOS", "B", "\uD83D\uDE00");

    @Test
    void upToKeepsWhatTheConditionMatchedUpToTheLastKeyIncluded() {
        String last = "AUTHOR#2026-01-02#a";
        for (SortKeyCondition condition : List.of(SortKeyCondition.any(), SortKeyCondition.beginsWith("AUTHOR#"),
                SortKeyCondition.between("AUTHOR#2026-01-01", "AUTHOR#2026-01-03"), SortKeyCondition.before("B"),
                SortKeyCondition.after("AUTHOR#"))) {
            SortKeyCondition narrowed = condition.upTo(last);
            for (String key : KEYS) {
                boolean expected = condition.matches(key) && compare(key, last) <= 0;
                assertEquals(expected, narrowed.matches(key), condition + " up to " + last + " for " + key);
            }
        }
    }

    @Test
    void aListReadNewestFirstCannotBeNarrowedSo() {
        KeyQuery newestFirst = KeyQuery.of(Index.TABLE, "USER#u1", SortKeyCondition.beginsWith("POST#"), true);
        assertThrows(IllegalStateException.class, () -> newestFirst.upTo("POST#2026"));
    }

    /** A range read oldest first whose page ended on the range's last key continues with nothing, not reversed. */
    @Test
    void aRangeContinuedPastItsLastKeyMatchesNothing() {
        SortKeyCondition range = SortKeyCondition.between("T#2026-01-01", "T#2026-01-03");
        assertTrue(range.continuing("T#2026-01-03", false).matchesNothing());
        assertFalse(range.continuing("T#2026-01-02", false).matchesNothing());
        assertFalse(range.continuing("T#2026-01-03", true).matchesNothing(), "newest first it narrows from above");
        assertFalse(SortKeyCondition.any().continuing("T#2026-01-03", false).matchesNothing());
    }

    private static int compare(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
