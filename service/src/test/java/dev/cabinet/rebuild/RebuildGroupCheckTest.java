package dev.cabinet.rebuild;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A rebuild's projector starts under a new group, or its own again; never under another table's. */
class RebuildGroupCheckTest {

    @Test
    void aGroupWithOffsetsIsRefusedUnlessItsTableHoldsProgress() {
        assertTrue(RebuildGroupCheck.refusal("cabinet-rebuild-v3", "cabinet-projector-v3", false, false).isEmpty(),
                "a new group: the rebuild reads the log from its beginning");
        assertTrue(RebuildGroupCheck.refusal("cabinet-rebuild-v3", "cabinet-projector-v3", true, true).isEmpty(),
                "its own group, restarted mid-rebuild");
        String reason = RebuildGroupCheck.refusal("cabinet-rebuild-v3", "cabinet-projector-v2", true, false)
                .orElseThrow();
        assertTrue(reason.contains("consumer group cabinet-projector-v2 has committed offsets"), reason);
        assertTrue(reason.contains("table cabinet-rebuild-v3 holds no projection progress"), reason);
    }
}
