package dev.cabinet.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.Derive;
import dev.cabinet.projection.WritePlan.DeriveChildren;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.projection.WritePlan.OrphanCheck;
import dev.cabinet.projection.WritePlan.Put;
import dev.cabinet.projection.WritePlan.RefreshCopies;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.projection.execution.StepCodec;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The steps a root records come back exactly as they were decided, every kind of step and every kind of value, but a
 * person's data, which a redo takes from the event decided again.
 */
class StepCodecTest {

    private static final Key POST = KeyPlan.POST.key("p1");
    private static final Key PROFILE = KeyPlan.USER_PROFILE.key("u1");

    @Test
    void everyKindOfStepSurvivesTheRoundTrip() {
        List<Step> steps = List.of(
                new Write(ItemUpdate.of(KeyPlan.USER_POST.key("u1", "2026-01-31T12:00:00.000Z", "p1"),
                        KeyPlan.USER_POST.name())
                        .set("headline", "Hi")
                        .setIfAbsent(Attributes.STATUS, "draft")
                        .set(Attributes.BODY, null)
                        .increment(Attributes.COMMENT_COUNT, -1)
                        .addToSet("tags", "a")
                        .deleteFromSet("tags", "b")
                        .set("flag", true)
                        .onlyIfExists()
                        .onlyIfEquals(Attributes.REV, 3)),
                new Delete(KeyPlan.COMMENT.key("p1", "2026-01-31T12:00:00.000Z", "c1")),
                new DeleteCollection(KeyQuery.of(Index.TABLE, "POST#p1", SortKeyCondition.beginsWith("COMMENT#"), false)),
                new Count(PROFILE, KeyPlan.USER_PROFILE, Attributes.POST_COUNT, -1,
                        KeyPlan.USER_POST.key("u1", "2026-01-31T12:00:00.000Z", "p1"), "uncounted"),
                new CopyCheck(PROFILE, 41, List.of(POST, KeyPlan.POST.key("p2"))),
                new RefreshCopies(PROFILE),
                RefreshCopies.whenBatchEnds(PROFILE),
                new FanOut(KeyQuery.of(Index.GSI2, "AUTHOR#u1", SortKeyCondition.between("a", "b"), true),
                        KeyPlan.GROUP_MEMBER, ItemUpdate.change().set(Attributes.GROUP_NAME, "Chess")),
                new FanOut(KeyQuery.of(Index.GSI1, "X", SortKeyCondition.any(), false), null,
                        ItemUpdate.change().set(Attributes.NAME, "x")),
                new Derive("folder-path", KeyPlan.FOLDER.key("f1")),
                new Derive("folder-path", KeyPlan.FOLDER.key("f2"), true),
                new DeriveChildren("folder-path", KeyPlan.FOLDER.key("f1")),
                new OrphanCheck(KeyPlan.POST_TOMBSTONE.key("p1"), List.of(KeyPlan.LIKE.key("p1", "u1"),
                        KeyPlan.POST_COUNTER.key("p1", 3))),
                new Put(Map.of(Key.PK, AttributeValue.fromS("METRICS#r#0"), Key.SK, AttributeValue.fromS("t"),
                        Attributes.CPU, AttributeValue.fromN("0.5"))));

        List<Step> decoded = StepCodec.decode(StepCodec.encode(steps));

        assertEquals(steps, decoded);
        assertEquals(steps.get(0).toString(), decoded.get(0).toString());
        // The decoded write makes the same request, not merely the same text.
        assertEquals(((Write) steps.get(0)).update().toRequest("t"), ((Write) decoded.get(0)).update().toRequest("t"));
    }

    @Test
    void theSameStepsEncodeTheSameWay() {
        List<Step> steps = List.of(new Write(ItemUpdate.of(POST).set(Attributes.TITLE, "a").set(Attributes.BODY, "b")));
        assertEquals(StepCodec.encode(steps), StepCodec.encode(StepCodec.decode(StepCodec.encode(steps))));
    }

    /**
     * A person's data is not recorded: it would outlive their erasure on a quiet stream. A redo takes it from the
     * event decided again, and writes exactly what the first attempt would have.
     */
    @Test
    void aPersonsDataIsWithheldFromTheRecordAndARedoTakesItFromTheEventDecidedAgain() {
        Key comment = KeyPlan.COMMENT.key("p1", "2026-01-31T12:00:00.000Z", "c1");
        ItemUpdate write = ItemUpdate.of(comment, KeyPlan.COMMENT.name())
                .set(Attributes.TEXT, "Secret text")
                .setIfAbsent(Attributes.AUTHOR_NAME, "Secret Name")
                .set(Attributes.PROFILE_VERSION, 41)
                .guardedBy("postVersion", 7);
        List<Step> steps = List.of(new Write(write), new CopyCheck(PROFILE, 41, List.of(comment)));
        AttributeValue recorded = StepCodec.encode(steps);

        assertFalse(ModelProjection.json(recorded).toString().contains("Secret"), ModelProjection.json(recorded)
                .toString());
        List<Step> decoded = StepCodec.decode(recorded);
        ItemUpdate withheld = ((Write) decoded.get(0)).update();
        assertEquals(Set.of(Attributes.TEXT, Attributes.AUTHOR_NAME), Set.copyOf(withheld.withheld().values()));
        assertThrows(IllegalStateException.class, () -> withheld.toRequest("t"), "never sent without its values");
        assertEquals(steps.get(1), decoded.get(1));

        List<Step> redone = StepCodec.filled(decoded, () -> WritePlan.onRoot().write(write)
                .then(new CopyCheck(PROFILE, 42, List.of(comment))));
        assertEquals(write.toRequest("t"), ((Write) redone.get(0)).update().toRequest("t"));
        assertEquals(steps.get(1), redone.get(1), "the recorded check, not the one decided again");
    }

    /** The person was erased between the attempts: the event decided again no longer writes their text. */
    @Test
    void aValueTheEventDecidedAgainNoLongerWritesIsLeftOutOfTheRedo() {
        Key summary = KeyPlan.USER_POST.key("u1", "2026-01-31T12:00:00.000Z", "p1");
        ItemUpdate write = ItemUpdate.of(summary).set(Attributes.TITLE, "Secret title")
                .set(Attributes.PROFILE_VERSION, 41).onlyIfExists();
        List<Step> decoded = StepCodec.decode(StepCodec.encode(List.of(new Write(write))));

        ItemUpdate redone = ((Write) StepCodec.filled(decoded, WritePlan::onRoot).get(0)).update();

        assertFalse(redone.mentions(Attributes.TITLE), redone.toString());
        UpdateItemRequest request = redone.toRequest("t");
        assertEquals(ItemUpdate.of(summary).set(Attributes.PROFILE_VERSION, -1).onlyIfExists().toString(),
                redone.toString(), "no copy decided: the version below any, which the copy's check refreshes");
        assertFalse(request.expressionAttributeNames().containsValue(Attributes.TITLE), "no unused name");
    }

    /**
     * The values decided again were read at another time than the record's: the write keeps the older copy version, so
     * that the copy's check refreshes the values from the source whenever they may be older than it.
     */
    @Test
    void aRedoKeepsTheOlderOfTheRecordedAndTheDecidedCopyVersions() {
        Key comment = KeyPlan.COMMENT.key("p1", "2026-01-31T12:00:00.000Z", "c1");
        List<Step> decoded = StepCodec.decode(StepCodec.encode(List.of(new Write(commentWrite(comment, "Ann", 41)))));

        assertEquals(commentWrite(comment, "Ann B.", 41).toString(),
                redone(decoded, commentWrite(comment, "Ann B.", 42)),
                "decided after a rename: the newer name, marked as old as the record's copy");
        assertEquals(commentWrite(comment, "Ann", 40).toString(), redone(decoded, commentWrite(comment, "Ann", 40)),
                "decided from a read older than the record's (a recording another attempt won)");
    }

    private static ItemUpdate commentWrite(Key comment, String name, long profileVersion) {
        return ItemUpdate.of(comment).set(Attributes.TEXT, "Hello").set(Attributes.AUTHOR_NAME, name)
                .set(Attributes.PROFILE_VERSION, profileVersion);
    }

    private static String redone(List<Step> recorded, ItemUpdate decided) {
        return ((Write) StepCodec.filled(recorded, () -> WritePlan.onRoot().write(decided)).get(0)).update().toString();
    }

    /** The executor adds its guard to a recorded write: a withheld value keeps its placeholder, and its refusal. */
    @Test
    void aWithheldWriteGuardedByTheExecutorIsStillRefusedAndKeepsItsPlaceholders() {
        Key comment = KeyPlan.COMMENT.key("p1", "2026-01-31T12:00:00.000Z", "c1");
        ItemUpdate write = ItemUpdate.of(comment).set(Attributes.TEXT, "Hello").set(Attributes.AUTHOR_NAME, "Ann");
        ItemUpdate recorded = ((Write) StepCodec.decode(StepCodec.encode(List.of(new Write(write)))).get(0)).update();

        ItemUpdate guarded = recorded.withKey(comment).guardedBy("postVersion", 9);

        assertThrows(IllegalStateException.class, () -> guarded.toRequest("t"));
        ItemUpdate filled = guarded.filledFrom(attribute -> write.valueSet(attribute));
        assertEquals(write.withKey(comment).guardedBy("postVersion", 9).toRequest("t").expressionAttributeValues()
                .values().stream().map(AttributeValue::toString).sorted().toList(), filled.toRequest("t")
                .expressionAttributeValues().values().stream().map(AttributeValue::toString).sorted().toList());
    }

    /**
     * A value left out (an erased author's avatar) drops its name; the executor's guard, added after, takes a name of
     * its own, not one still in use (DynamoDB refuses a request that sets one attribute twice).
     */
    @Test
    void aWriteWithAValueLeftOutTakesTheExecutorsGuardUnderANameOfItsOwn() {
        Key comment = KeyPlan.COMMENT.key("p1", "2026-01-31T12:00:00.000Z", "c1");
        ItemUpdate write = ItemUpdate.of(comment).set(Attributes.TEXT, "Hello").set(Attributes.AUTHOR_AVATAR, "a.png")
                .set(Attributes.AUTHOR_NAME, "Ann").set(Attributes.PROFILE_VERSION, 41);
        ItemUpdate recorded = ((Write) StepCodec.decode(StepCodec.encode(List.of(new Write(write)))).get(0)).update();

        ItemUpdate redone = recorded.filledFrom(attribute -> Attributes.AUTHOR_AVATAR.equals(attribute)
                ? Optional.empty() : write.valueSet(attribute)).guardedBy("postVersion", 9);

        Map<String, String> names = redone.toRequest("t").expressionAttributeNames();
        assertEquals(names.size(), Set.copyOf(names.values()).size(), names.toString());
        assertEquals(ItemUpdate.of(comment).set(Attributes.TEXT, "Hello").set(Attributes.AUTHOR_NAME, "Ann")
                .set(Attributes.PROFILE_VERSION, 41).guardedBy("postVersion", 9).toRequest("t").updateExpression()
                .split(",").length, redone.toRequest("t").updateExpression().split(",").length);
        assertTrue(names.containsValue("postVersion") && names.containsValue(Attributes.PROFILE_VERSION));
    }

    @Test
    void stepsWithNothingWithheldAreRedoneWithoutDecidingAgain() {
        List<Step> steps = StepCodec.decode(StepCodec.encode(List.of(new Delete(POST))));
        assertEquals(List.of(new Delete(POST)), StepCodec.filled(steps, () -> {
            throw new AssertionError("decided again");
        }));
    }

    @Test
    void aPutOfAPersonsDataCannotBeRecorded() {
        Put put = new Put(Map.of(Key.PK, AttributeValue.fromS("POST#p1"), Key.SK, AttributeValue.fromS("x"),
                Attributes.TEXT, AttributeValue.fromS("Secret")));
        assertThrows(IllegalStateException.class, () -> StepCodec.encode(List.of(put)));
    }

    @Test
    void noRecordedStepsIsNoSteps() {
        assertEquals(List.of(), StepCodec.decode(null));
        assertEquals(List.of(), StepCodec.decode(StepCodec.encode(List.of())));
    }
}
