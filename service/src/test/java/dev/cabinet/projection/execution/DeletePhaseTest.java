package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Values;

/**
 * Which deletes and counts of a plan go out with its writes and which wait for them (PlanExecutor's phases). No store.
 */
class DeletePhaseTest {

    private static final String T = "2026-01-31T12:00:00.000Z";

    @Test
    void aCommentsDeleteGoesOutWithTheWriteOfItsCounterShard() {
        Delete comment = new Delete(KeyPlan.COMMENT.key("p1", T, "c1"));
        List<Step> steps = List.of(new Write(KeyPlan.POST_COUNTER.write(Map.of(Attributes.POST_ID, "p1",
                Attributes.SHARD, 3)).increment(Attributes.COMMENT_COUNT, -1)), comment);
        assertFalse(Rounds.waits(comment, steps, Set.of()));
    }

    @Test
    void aMoveWritesTheNewPlaceBeforeTheOldOneGoes() {
        Delete oldEntry = new Delete(KeyPlan.SUBFOLDER.key("old", "f1"));
        List<Step> steps = List.of(new Write(KeyPlan.SUBFOLDER.write(Map.of(Attributes.PARENT_ID, "new",
                Attributes.FOLDER_ID, "f1", Attributes.NAME, "Docs"))), oldEntry);
        assertTrue(Rounds.waits(oldEntry, steps, Set.of()));
    }

    @Test
    void aCountsMarkerIsDeletedOnlyAfterTheCount() {
        Key summary = KeyPlan.USER_POST.key("u1", T, "p1");
        Delete delete = new Delete(summary);
        List<Step> steps = List.of(new Count(KeyPlan.USER_PROFILE.key("u1"), KeyPlan.USER_PROFILE,
                Attributes.POST_COUNT, -1, summary, "uncounted"), delete);
        assertTrue(Rounds.waits(delete, steps, Set.of(summary)));
    }

    @Test
    void anItemOfNoDeclaredTypeWaits() {
        Delete unknown = new Delete(new Key("SOMETHING#1", "ELSE"));
        assertTrue(Rounds.waits(unknown, List.of(unknown), Set.of()));
    }

    @Test
    void aPostDeletionsAuthorCountGoesOutWithTheFirstPhase() {
        StreamTarget post = StreamTarget.of(KeyPlan.POST_STREAM, "p1");
        Key summary = KeyPlan.USER_POST.key("u1", T, "p1");
        Count authorsPosts = new Count(KeyPlan.USER_PROFILE.key("u1"), KeyPlan.USER_PROFILE, Attributes.POST_COUNT, -1,
                summary, "uncounted");
        WritePlan plan = WritePlan.deleting(KeyPlan.POST_TOMBSTONE.write(Values.of(Attributes.POST_ID, "p1",
                        Attributes.DELETED_AT, T)))
                .then(new DeleteCollection(KeyPlan.COMMENT.collectionUnder(Values.of(Attributes.POST_ID, "p1"))))
                .then(authorsPosts)
                .delete(summary);
        assertEquals(List.of(authorsPosts), Rounds.countsEarly(post, plan));
        assertEquals(List.of(), Rounds.countsEarly(StreamTarget.none(), plan), "no recording to go beside");
    }

    @Test
    void aCountWaitsWhenAnotherStepCouldChangeWhatItsLookFinds() {
        StreamTarget post = StreamTarget.of(KeyPlan.POST_STREAM, "p1");
        Key comment = KeyPlan.COMMENT.key("p1", T, "c1");
        Key shard = KeyPlan.POST_COUNTER.key("p1", 3);
        Count comments = new Count(shard, KeyPlan.POST_COUNTER, Attributes.COMMENT_COUNT, 1, comment, "counted");
        WritePlan writesItsMarker = WritePlan.onRoot().write(KeyPlan.COMMENT.write(Values.of(Attributes.POST_ID, "p1",
                Attributes.CREATED_AT, T, Attributes.COMMENT_ID, "c1"))).then(comments);
        assertEquals(List.of(), Rounds.countsEarly(post, writesItsMarker), "counted once its marker is there");
        WritePlan deletesItsPartition = WritePlan.onRoot()
                .then(new DeleteCollection(KeyPlan.COMMENT.collectionUnder(Values.of(Attributes.POST_ID, "p1"))))
                .then(comments);
        assertEquals(List.of(), Rounds.countsEarly(post, deletesItsPartition), "its marker may go first");
        Count onTheRoot = new Count(post.root(), KeyPlan.POST, Attributes.COMMENT_COUNT, 1, comment, "counted");
        assertEquals(List.of(), Rounds.countsEarly(post, WritePlan.onRoot().then(onTheRoot)),
                "the root is the recording's");
    }

    @Test
    void aMarkerGoesRightAfterItsEarlyCountsUnlessAnotherCountOfItWaits() {
        Key comment = KeyPlan.COMMENT.key("p1", T, "c1");
        Count early = new Count(KeyPlan.USER_PROFILE.key("u1"), KeyPlan.USER_PROFILE, Attributes.COMMENT_COUNT, -1,
                comment, "uncounted");
        Count waiting = new Count(KeyPlan.POST_COUNTER.key("p1", 3), KeyPlan.POST_COUNTER, Attributes.COMMENT_COUNT, -1,
                comment, "uncountedOnPost");
        Delete delete = new Delete(comment);
        assertEquals(Set.of(comment), Rounds.deletedAfterEarlyCounts(List.of(early, delete), List.of(early)));
        assertEquals(Set.of(), Rounds.deletedAfterEarlyCounts(List.of(early, waiting, delete), List.of(early)),
                "counted by a count of the second phase too: it waits for that one");
        assertEquals(Set.of(), Rounds.deletedAfterEarlyCounts(List.of(early, delete), List.of()));
    }
}
