package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Put;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which recorded steps must not outlive their event (pure): those that write what a person's erasure replaces, known
 * from the key plan's declared copies rather than a list of its own.
 */
class RecordedStepsReleaseTest {

    private static final Key POST = KeyPlan.POST.key("p1");
    private static final Key SHARD = KeyPlan.POST_COUNTER.key("p1", 3);

    @Test
    void thePersonalAttributesAreWhatTheCopiesCopyAndWhatTheySayThePersonWrote() {
        assertEquals(Set.of(Attributes.AUTHOR_NAME, Attributes.AUTHOR_AVATAR, Attributes.USER_NAME, Attributes.TITLE,
                Attributes.BODY, Attributes.TEXT), KeyPlan.PERSONAL_ATTRIBUTES);
    }

    @Test
    void stepsThatWriteACommentsTextOrAMembersNameCarryPersonalData() {
        assertTrue(RecordedStepsRelease.carryPersonalData(List.of(
                new Write(ItemUpdate.of(SHARD).increment(Attributes.COMMENT_COUNT, 1)),
                new Write(ItemUpdate.of(KeyPlan.COMMENT.key("p1", "2026-06-01T10:00:00.000Z", "c1"))
                        .set(Attributes.TEXT, "Nice post")))));
        assertTrue(RecordedStepsRelease.carryPersonalData(List.of(new Put(Map.of(
                Attributes.USER_NAME, AttributeValue.fromS("Ada"))))));
    }

    @Test
    void countsChecksAndOtherWritesDoNot() {
        assertFalse(RecordedStepsRelease.carryPersonalData(List.of(
                new Write(ItemUpdate.of(SHARD).increment(Attributes.COMMENT_COUNT, 1)),
                new CopyCheck(KeyPlan.USER_PROFILE.key("ada"), 3, List.of(POST)))));
        assertFalse(RecordedStepsRelease.carryPersonalData(List.of()));
    }
}
