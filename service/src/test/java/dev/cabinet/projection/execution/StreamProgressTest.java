package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.execution.StreamProgress.Kind;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The executor's progress rules, from a root and a tombstone as read, without a store. */
class StreamProgressTest {

    private static final StreamTarget EDIT = StreamTarget.of(KeyPlan.POST_STREAM, "p1");
    private static final StreamTarget CREATE = StreamTarget.creating(KeyPlan.POST_STREAM, "p1");
    private static final StreamTarget REGISTER = StreamTarget.upserting(KeyPlan.USER_STREAM, "u1");
    private static final Optional<Map<String, AttributeValue>> NONE = Optional.empty();

    @Test
    void aRootBehindTheEventTakesItAsNew() {
        assertEquals(Kind.NEW, progress(EDIT, root(10), NONE, "e", 12).kind());
    }

    @Test
    void aRootAtTheEventsVersionRedoesTheRecordedSteps() {
        StreamProgress progress = progress(EDIT, root(12), NONE, "e", 12);
        assertEquals(Kind.REDO, progress.kind());
        assertEquals(root(12), progress.recordedOn());
    }

    @Test
    void aRootPastTheEventHasAppliedIt() {
        assertEquals(Kind.DONE, progress(EDIT, root(13), NONE, "e", 12).kind());
    }

    @Test
    void aDuplicateRecordOfAnAppliedEventIsDoneAndNotRejected() {
        // The retried command's second record has a higher offset, and would be "already exists" for a creation.
        assertEquals(Kind.DONE, progress(CREATE, root(12, "e"), NONE, "e", 20).kind());
        assertEquals(Kind.DONE, progress(EDIT, root(12, "x", "e"), NONE, "e", 20).kind());
    }

    @Test
    void anEventOfAMissingAggregateIsRejectedUnlessItCreatesIt() {
        StreamProgress progress = progress(EDIT, NONE, NONE, "e", 12);
        assertEquals(Kind.REJECTED, progress.kind());
        assertEquals("post p1 does not exist", progress.rejection());
        assertEquals(Kind.NEW, progress(CREATE, NONE, NONE, "e", 12).kind());
    }

    @Test
    void aCreationFindingItsAggregateIsRejected() {
        StreamProgress progress = progress(CREATE, root(3), NONE, "e", 12);
        assertEquals(Kind.REJECTED, progress.kind());
        assertEquals("post p1 already exists", progress.rejection());
    }

    @Test
    void anUpsertTakesEitherARootOrNone() {
        assertEquals(Kind.NEW, progress(REGISTER, NONE, NONE, "e", 12).kind());
        assertEquals(Kind.NEW, progress(REGISTER, root(3), NONE, "e", 12).kind());
    }

    @Test
    void aTombstoneAtOrPastTheEventMeansItWasAppliedBeforeTheDeletion() {
        assertEquals(Kind.DONE, progress(EDIT, NONE, tombstone(15), "e", 12).kind());
        assertEquals(Kind.DONE, progress(CREATE, NONE, tombstone(15), "e", 12).kind());
        assertEquals(Kind.REJECTED, progress(EDIT, NONE, tombstone(15), "e", 16).kind());
    }

    @Test
    void aCreationAfterTheDeletionIsRejectedNotACreationAgain() {
        // Another producer reusing a deleted post's id, or a creation recorded again beyond the tombstone's recent ids:
        // created again, the post would live beside its tombstone, whose orphan checks delete its likes and counts.
        StreamProgress progress = progress(CREATE, NONE, tombstone(15), "e", 16);
        assertEquals(Kind.REJECTED, progress.kind());
        assertEquals("post p1 was deleted", progress.rejection());
        // One made again before the rule, beside its tombstone: its creation's redo is still a redo.
        assertEquals(Kind.REDO, progress(CREATE, root(16), tombstone(15), "e", 16).kind());
        assertEquals(Kind.DONE, progress(CREATE, root(20), tombstone(15), "e", 16).kind());
    }

    @Test
    void aDeletionCutShortIsRedoneFromItsTombstone() {
        StreamProgress progress = progress(EDIT, root(10), tombstone(15), "e", 15);
        assertEquals(Kind.REDO, progress.kind());
        assertTrue(progress.onTombstone());
        assertEquals(tombstone(15), progress.recordedOn());
    }

    /**
     * Its root gone, it is redone all the same: the root's delete may have gone out beside steps a crash cut short
     * (Rounds#deletesRootEarly); each step redone after the deletion ended finds its work done.
     */
    @Test
    void aDeletionRedeliveredWithItsRootGoneIsRedoneFromItsTombstone() {
        StreamProgress progress = progress(EDIT, NONE, tombstone(15), "e", 15);
        assertEquals(Kind.REDO, progress.kind());
        assertTrue(progress.onTombstone());
        assertEquals(tombstone(15), progress.recordedOn());
    }

    @Test
    void aDuplicateOfTheDeletionIsDone() {
        Optional<Map<String, AttributeValue>> tombstone = Optional.of(with(tombstone(15).get(), "d"));
        assertEquals(Kind.DONE, progress(EDIT, NONE, tombstone, "d", 30).kind());
    }

    @Test
    void theRootKeepsABoundedListOfRecentIds() {
        Optional<Map<String, AttributeValue>> root = NONE;
        for (int i = 0; i < 40; i++) {
            root = Optional.of(Map.of(Attributes.RECENT_EVENT_IDS, StreamProgress.recording(root, "e" + i)));
        }
        assertEquals(IntStream.range(8, 40).mapToObj(i -> StreamProgress.fingerprint("e" + i)).toList(),
                StreamProgress.recentIds(root.get()));
        assertEquals(StreamProgress.RECENT_IDS, StreamProgress.recentIds(root.get()).size());
        assertEquals(8 * StreamProgress.RECENT_IDS, root.get().get(Attributes.RECENT_EVENT_IDS).b().asByteArray().length,
                "8 bytes an id");
    }

    @Test
    void idsRecordedAsAListBeforeTheyWereFingerprintsAreStillRecognized() {
        Optional<Map<String, AttributeValue>> old = root(10, "a", "b");
        assertEquals(Kind.DONE, progress(EDIT, old, NONE, "b", 11).kind());
        Map<String, AttributeValue> next = Map.of(Attributes.RECENT_EVENT_IDS, StreamProgress.recording(old, "c"));
        assertEquals(List.of("a", "b", "c").stream().map(StreamProgress::fingerprint).toList(),
                StreamProgress.recentIds(next));
    }

    @Test
    void theRecordingWriteGuardsTheRootAndCarriesTheStepsAndIds() {
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(KeyPlan.POST.key("p1")).set(Attributes.TITLE, "T"))
                .delete(KeyPlan.POST.key("p9"));
        ItemUpdate write = PlanExecutor.recordingWrite(EDIT, plan, root(10, "a"), "e", 12);
        assertEquals(ItemUpdate.of(KeyPlan.POST.key("p1")).set(Attributes.TITLE, "T")
                .guardedBy("postVersion", 12).onlyIfExists()
                .set(Attributes.PENDING_STEPS, StepCodec.encode(plan.steps()))
                .set(Attributes.RECENT_EVENT_IDS, StreamProgress.recording(root(10, "a"), "e")), write);
        // The plan itself is left as decided.
        assertEquals(ItemUpdate.of(KeyPlan.POST.key("p1")).set(Attributes.TITLE, "T"), plan.root());
    }

    @Test
    void aCreationsRecordingWriteDoesNotRequireARootAndADeletionsGoesOnTheTombstone() {
        ItemUpdate creation = PlanExecutor.recordingWrite(CREATE, WritePlan.onRoot(), NONE, "e", 12);
        assertEquals(ItemUpdate.of(KeyPlan.POST.key("p1")).guardedBy("postVersion", 12)
                .set(Attributes.PENDING_STEPS, null)
                .set(Attributes.RECENT_EVENT_IDS, StreamProgress.recording(NONE, "e")), creation);
        ItemUpdate deletion = PlanExecutor.recordingWrite(EDIT,
                WritePlan.deleting(ItemUpdate.of(KeyPlan.POST_TOMBSTONE.key("p1"))), root(10), "e", 12);
        assertEquals(KeyPlan.POST_TOMBSTONE.key("p1"), deletion.key());
        assertTrue(deletion.toString().contains("IF (attribute_not_exists(postVersion) OR postVersion < 12)"),
                deletion.toString());
        assertTrue(!deletion.toString().contains("attribute_exists(pk)"), deletion.toString());
    }

    private static StreamProgress progress(StreamTarget target, Optional<Map<String, AttributeValue>> root,
            Optional<Map<String, AttributeValue>> tombstone, String id, long version) {
        return StreamProgress.of(target, root, tombstone, id, version);
    }

    private static Optional<Map<String, AttributeValue>> root(long version, String... ids) {
        return Optional.of(with(Map.of("postVersion", AttributeValue.fromN(Long.toString(version))), ids));
    }

    private static Optional<Map<String, AttributeValue>> tombstone(long version) {
        return root(version);
    }

    private static Map<String, AttributeValue> with(Map<String, AttributeValue> item, String... ids) {
        Map<String, AttributeValue> copy = new HashMap<>(item);
        if (ids.length > 0) {
            copy.put(Attributes.RECENT_EVENT_IDS,
                    AttributeValue.fromL(List.of(ids).stream().map(AttributeValue::fromS).toList()));
        }
        return copy;
    }
}
