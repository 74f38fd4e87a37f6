package dev.cabinet.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

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
import dev.cabinet.projection.execution.StepCodec;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The steps a root records come back exactly as they were decided, every kind of step and every kind of value. */
class StepCodecTest {

    private static final Key POST = KeyPlan.POST.key("p1");
    private static final Key PROFILE = KeyPlan.USER_PROFILE.key("u1");

    @Test
    void everyKindOfStepSurvivesTheRoundTrip() {
        List<Step> steps = List.of(
                new Write(ItemUpdate.of(KeyPlan.USER_POST.key("u1", "2026-01-31T12:00:00.000Z", "p1"),
                        KeyPlan.USER_POST.name())
                        .set(Attributes.TITLE, "Hi")
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

    @Test
    void noRecordedStepsIsNoSteps() {
        assertEquals(List.of(), StepCodec.decode(null));
        assertEquals(List.of(), StepCodec.decode(StepCodec.encode(List.of())));
    }
}
