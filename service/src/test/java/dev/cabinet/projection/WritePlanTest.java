package dev.cabinet.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** What a plan refuses to hold, because the executor could not carry it out as meant. */
class WritePlanTest {

    private static final Key PROFILE = KeyPlan.USER_PROFILE.key("ada");

    @Test
    void aPlanCountsOnOneCounterOnceAtMost() {
        WritePlan plan = WritePlan.facts().then(new Count(PROFILE, KeyPlan.USER_PROFILE, Attributes.POST_COUNT, 1,
                new Key("USER#ada", "POST#1"), "counted"));
        plan.then(new Count(KeyPlan.USER_PROFILE.key("bob"), KeyPlan.USER_PROFILE, Attributes.POST_COUNT, 1,
                new Key("USER#bob", "POST#1"), "counted"));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> plan.then(new Count(PROFILE,
                KeyPlan.USER_PROFILE, "commentCount", 1, new Key("USER#ada", "POST#1"), "commented")));
        assertEquals("a plan counts on " + PROFILE + " once at most", refused.getMessage());
    }
}
