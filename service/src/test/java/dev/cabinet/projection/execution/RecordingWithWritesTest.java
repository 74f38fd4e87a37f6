package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;

/**
 * When a new event's first writes may share a round with its recording write ({@link Rounds#recordsWithWrites}):
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
        assertTrue(Rounds.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void aDeletionRecordsItsTombstoneFirst() {
        WritePlan plan = WritePlan.deleting(ItemUpdate.of(POST.tombstone())).delete(SUMMARY);
        assertFalse(Rounds.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void aRootWriteWithAConditionOfItsOwnRecordsFirst() {
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(ROOT).set("status", "PUBLISHED").onlyIfHas("title"))
                .write(ItemUpdate.of(SUMMARY).set("status", "PUBLISHED"));
        assertFalse(Rounds.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void anItemOfAnotherStreamReadForTheDecisionMakesItRecordFirst() {
        // The folder could be gone when the event is decided again: the second decision would reject it.
        WritePlan plan = WritePlan.onRoot().write(ItemUpdate.of(OWN_ITEM).set("name", "n"));
        assertFalse(Rounds.recordsWithWrites(POST, plan, List.of(FOLDER)));
        assertTrue(Rounds.recordsWithWrites(POST, plan, List.of(new Key(ROOT.pk(), "COMMENT#2"))));
    }

    @Test
    void aCopySourceReadOnlyToCopyFromMayEvenBeCountedOn() {
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(ROOT).set("authorName", "A"))
                .write(ItemUpdate.of(SUMMARY).set("title", "t"))
                .then(new Count(PROFILE, KeyPlan.USER_PROFILE, "postCount", 1, SUMMARY, "counted"))
                .then(new CopyCheck(PROFILE, 3, List.of(ROOT)));
        assertTrue(Rounds.recordsWithWrites(POST, plan, List.of(PROFILE)));
    }

    @Test
    void aPlanThatWritesWhatItReadRecordsFirst() {
        // A join reads the membership it creates: decided again on its own half-applied write, it would count no one.
        WritePlan plan = WritePlan.onRoot().write(ItemUpdate.of(OWN_ITEM).set("role", "member"));
        assertFalse(Rounds.recordsWithWrites(POST, plan, List.of(OWN_ITEM)));
        WritePlan counting = WritePlan.onRoot()
                .then(new Count(OWN_ITEM, KeyPlan.USER_PROFILE, "members", 1, SUMMARY, "counted"));
        assertFalse(Rounds.recordsWithWrites(POST, counting, List.of(OWN_ITEM)));
        WritePlan onRoot = WritePlan.onRoot().write(ItemUpdate.of(ROOT).set("x", 1));
        assertFalse(Rounds.recordsWithWrites(POST, onRoot, List.of()));
    }

    @Test
    void aWriteOfAnItemReadGoesWithTheRecordingWhereTheDecisionTellsItsOwnWriteByTheVersion() {
        // A join reads the member it makes, and knows it made it when the member carries the event's version.
        WritePlan plan = WritePlan.onRoot().write(ItemUpdate.of(OWN_ITEM).set("role", "member"))
                .decidesAlikeAfterWriting(OWN_ITEM);
        assertTrue(Rounds.recordsWithWrites(POST, plan, List.of(OWN_ITEM)));
        // A write with a version guard of its own does not leave the event's version for the decision to see.
        WritePlan ownGuard = WritePlan.onRoot().write(ItemUpdate.of(OWN_ITEM).set("role", "member")
                .guardedBy(POST.stream().versionAttribute(), 3)).decidesAlikeAfterWriting(OWN_ITEM);
        assertFalse(Rounds.recordsWithWrites(POST, ownGuard, List.of(OWN_ITEM)));
        // A delete leaves no version behind, and a count is guarded by its token: neither may be declared away.
        WritePlan deleting = WritePlan.onRoot().delete(OWN_ITEM).decidesAlikeAfterWriting(OWN_ITEM);
        assertFalse(Rounds.recordsWithWrites(POST, deleting, List.of(OWN_ITEM)));
    }

    @Test
    void aCollectionDeleteRecordsFirst() {
        WritePlan plan = WritePlan.onRoot().then(new DeleteCollection(KeyQuery.of(Index.TABLE, ROOT.pk(),
                SortKeyCondition.beginsWith("COMMENT#"), false)));
        assertFalse(Rounds.recordsWithWrites(POST, plan, List.of()));
    }

    @Test
    void anEventWithoutAStreamHasNoRecordingToShareARoundWith() {
        assertFalse(Rounds.recordsWithWrites(StreamTarget.none(), WritePlan.facts()
                .write(ItemUpdate.of(FOLDER).set("x", 1)), List.of()));
    }

    @Test
    void aFanOutOverTheStreamsOwnPartitionGoesOutWithTheFirstWrites() {
        // A group's rename: its members (its own partition, changed only by its events) name the mirrors to rename.
        StreamTarget group = StreamTarget.of(KeyPlan.GROUP_STREAM, "g1");
        KeyQuery members = KeyQuery.of(Index.TABLE, group.root().pk(),
                SortKeyCondition.beginsWith(KeyPlan.GROUP_MEMBER.sk().prefix()), false);
        FanOut rename = new FanOut(members, KeyPlan.USER_GROUP, ItemUpdate.change().set("groupName", "New"));
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(group.root()).set("name", "New")).then(rename);
        assertTrue(Rounds.fansOutEarly(rename, group, plan.steps()));
        assertTrue(Rounds.recordsWithWrites(group, plan, List.of()));

        // Another stream's partition may change meanwhile: after the writes, as a look.
        FanOut elsewhere = new FanOut(KeyQuery.of(Index.TABLE, "USER#u1", SortKeyCondition.beginsWith("GROUP#"), false),
                KeyPlan.USER_GROUP, ItemUpdate.change().set("groupName", "New"));
        assertFalse(Rounds.fansOutEarly(elsewhere, group, List.of(elsewhere)));
        // A plan that also writes an item the fan-out changes: the write first.
        WritePlan writingAMirror = WritePlan.onRoot().write(ItemUpdate.of(new Key("USER#u1", "GROUP#g1"))
                .set("role", "admin")).then(rename);
        assertFalse(Rounds.fansOutEarly(rename, group, writingAMirror.steps()));
        // A mirror the decision read (here to copy from): deciding again could see the fan-out's own change, so the
        // recording goes first.
        Key mirror = new Key("USER#u1", "GROUP#g1");
        WritePlan copyingFromAMirror = WritePlan.onRoot(ItemUpdate.of(group.root()).set("name", "New")).then(rename)
                .then(new CopyCheck(mirror, 1, List.of(group.root())));
        assertTrue(Rounds.fansOutEarly(rename, group, copyingFromAMirror.steps()));
        assertFalse(Rounds.recordsWithWrites(group, copyingFromAMirror, List.of(mirror)));
        // Items found without a declared target type are the partition's own, which the first writes may touch.
        FanOut untyped = new FanOut(members, null, ItemUpdate.change().set("groupName", "New"));
        assertFalse(Rounds.fansOutEarly(untyped, group, List.of(untyped)));
    }

    /** An existence need must be of a permanent type: a post, which a deletion removes, is refused as one. */
    @Test
    void anExistenceNeedOfATypeThatCanBeDeletedIsRefused() {
        Key folder = KeyPlan.FOLDER.key("d1");
        assertEquals(List.of(folder), PlanExecutor.permanent(List.of(folder)));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PlanExecutor.permanent(List.of(KeyPlan.POST.key("p1"))));
        assertTrue(refused.getMessage().contains("is an existence need, but its item type is not permanent"),
                refused.getMessage());
    }
}
