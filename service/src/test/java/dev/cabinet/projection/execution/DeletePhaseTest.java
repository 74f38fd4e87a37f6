package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Which deletes of a plan go out with its writes and which wait for them (PlanExecutor's phases). No store. */
class DeletePhaseTest {

    private static final String T = "2026-01-31T12:00:00.000Z";

    @Test
    void aCommentsDeleteGoesOutWithTheWriteOfItsCounterShard() {
        Delete comment = new Delete(KeyPlan.COMMENT.key("p1", T, "c1"));
        List<Step> steps = List.of(new Write(KeyPlan.POST_COUNTER.write(Map.of(Attributes.POST_ID, "p1",
                Attributes.SHARD, 3)).increment(Attributes.COMMENT_COUNT, -1)), comment);
        assertFalse(PlanExecutor.waits(comment, steps, Set.of()));
    }

    @Test
    void aMoveWritesTheNewPlaceBeforeTheOldOneGoes() {
        Delete oldEntry = new Delete(KeyPlan.SUBFOLDER.key("old", "f1"));
        List<Step> steps = List.of(new Write(KeyPlan.SUBFOLDER.write(Map.of(Attributes.PARENT_ID, "new",
                Attributes.FOLDER_ID, "f1", Attributes.NAME, "Docs"))), oldEntry);
        assertTrue(PlanExecutor.waits(oldEntry, steps, Set.of()));
    }

    @Test
    void aCountsMarkerIsDeletedOnlyAfterTheCount() {
        Key summary = KeyPlan.USER_POST.key("u1", T, "p1");
        Delete delete = new Delete(summary);
        List<Step> steps = List.of(new Count(KeyPlan.USER_PROFILE.key("u1"), KeyPlan.USER_PROFILE,
                Attributes.POST_COUNT, -1, summary, "uncounted"), delete);
        assertTrue(PlanExecutor.waits(delete, steps, Set.of(summary)));
    }

    @Test
    void anItemOfNoDeclaredTypeWaits() {
        Delete unknown = new Delete(new Key("SOMETHING#1", "ELSE"));
        assertTrue(PlanExecutor.waits(unknown, List.of(unknown), Set.of()));
    }
}
