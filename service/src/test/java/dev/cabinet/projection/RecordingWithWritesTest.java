package dev.cabinet.projection;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;

/**
 * When a new event's first writes may share a round with its recording write ({@link PlanExecutor#recordsWithWrites}):
 * only where deciding the event again after a crash between them gives the same plan. Pure: plans as values.
 */
class RecordingWithWritesTest {

    private static final StreamTarget POST = StreamTarget.of(KeyPlan.POST_STREAM, "p1");
    private static final Key ROOT = POST.root();
    private static final Key OWN_ITEM = new Key(ROOT.pk(), "COMMENT#1");
    private static final Key PROFILE = new Key("USER#u1", "PROFILE");
    private static final Key SUMMARY = new Key("USER#u1", "POST#p1");
    private static final Key FOLDER = new Key("FOLDER#f1", "METADATA");

    @Test
    void anEditThatReadsNothingElseWritesWithItsRecording() {
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(ROOT).set("title", "t")).write(ItemUpdate.of(SUMMARY)
                .set("title", "t"));
        assertTrue(PlanExecutor.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void aDeletionRecordsItsTombstoneFirst() {
        WritePlan plan = WritePlan.deleting(ItemUpdate.of(POST.tombstone())).delete(SUMMARY);
        assertFalse(PlanExecutor.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void aRootWriteWithAConditionOfItsOwnRecordsFirst() {
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(ROOT).set("status", "PUBLISHED").onlyIfHas("title"))
                .write(ItemUpdate.of(SUMMARY).set("status", "PUBLISHED"));
        assertFalse(PlanExecutor.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void anItemOfAnotherStreamReadForTheDecisionMakesItRecordFirst() {
        // The folder could be gone when the event is decided again: the second decision would reject it.
        WritePlan plan = WritePlan.onRoot().write(ItemUpdate.of(OWN_ITEM).set("name", "n"));
        assertFalse(PlanExecutor.recordsWithWrites(POST, plan, List.of(FOLDER)));
        assertTrue(PlanExecutor.recordsWithWrites(POST, plan, List.of(new Key(ROOT.pk(), "COMMENT#2"))));
    }

    @Test
    void aCopySourceReadOnlyToCopyFromMayEvenBeCountedOn() {
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(ROOT).set("authorName", "A"))
                .write(ItemUpdate.of(SUMMARY).set("title", "t"))
                .then(new Count(PROFILE, KeyPlan.USER_PROFILE, "postCount", 1, SUMMARY, "counted"))
                .then(new CopyCheck(PROFILE, 3, List.of(ROOT)));
        assertTrue(PlanExecutor.recordsWithWrites(POST, plan, List.of(PROFILE)));
    }

    @Test
    void aPlanThatWritesWhatItReadRecordsFirst() {
        // A join reads the membership it creates: decided again on its own half-applied write, it would count no one.
        WritePlan plan = WritePlan.onRoot().write(ItemUpdate.of(OWN_ITEM).set("role", "member"));
        assertFalse(PlanExecutor.recordsWithWrites(POST, plan, List.of(OWN_ITEM)));
        WritePlan counting = WritePlan.onRoot()
                .then(new Count(OWN_ITEM, KeyPlan.USER_PROFILE, "members", 1, SUMMARY, "counted"));
        assertFalse(PlanExecutor.recordsWithWrites(POST, counting, List.of(OWN_ITEM)));
        WritePlan onRoot = WritePlan.onRoot().write(ItemUpdate.of(ROOT).set("x", 1));
        assertFalse(PlanExecutor.recordsWithWrites(POST, onRoot, List.of()));
    }

    @Test
    void aCollectionDeleteRecordsFirst() {
        WritePlan plan = WritePlan.onRoot().then(new DeleteCollection(KeyQuery.of(Index.TABLE, ROOT.pk(),
                SortKeyCondition.beginsWith("COMMENT#"), false)));
        assertFalse(PlanExecutor.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void anEventWithoutAStreamHasNoRecordingToShareARoundWith() {
        assertFalse(PlanExecutor.recordsWithWrites(StreamTarget.none(), WritePlan.facts()
                .write(ItemUpdate.of(FOLDER).set("x", 1)), List.of()));
    }
}
