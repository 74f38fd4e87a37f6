package dev.cabinet.rebuild;

import static dev.cabinet.rebuild.RecordedEvents.event;
import static dev.cabinet.rebuild.RecordedEvents.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.Values;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items a user stream's rebuild resets: only its profile, emptied of all but what the post streams count on it;
 * the summaries and memberships in its partition are other streams' (no I/O).
 */
class UserStreamResetTest {

    private static final UserStreamReset RESET = new UserStreamReset();
    private static final List<RecordedEvent> EVENTS = List.of(
            event(Topics.USERS, "ann", 0, "e-registered", "{\"userId\":\"ann\",\"name\":\"Ann\",\"email\":\"a@x.org\","
                    + "\"registeredAt\":\"2026-06-01T10:00:00.000Z\"}"),
            event(Topics.USERS, "ann", 1, "e-updated", "{\"userId\":\"ann\",\"name\":\"Annie\"}"));

    @Test
    void theProfileKeepsOnlyThePostCountAndItsPendingTokensAndNothingElseIsTouched() {
        Map<String, AttributeValue> profile = new HashMap<>(item(KeyPlan.USER_PROFILE.key("ann"),
                Attributes.NAME, "Annie"));
        profile.put(KeyPlan.TYPE, AttributeValue.fromS("UserProfile"));
        profile.put("userVersion", AttributeValue.fromN("1"));
        profile.put("nickname", AttributeValue.fromS("put there by hand"));
        profile.put(Attributes.POST_COUNT, AttributeValue.fromN("3"));
        profile.put(TableWriter.PENDING_COUNTS, AttributeValue.fromSs(List.of("e-post")));
        List<Map<String, AttributeValue>> partition = List.of(profile,
                item(KeyPlan.USER_POST.keyFrom(Values.of(Attributes.USER_ID, "ann", Attributes.CREATED_AT,
                        "2026-06-01T10:00:00.000Z", Attributes.POST_ID, "p1")), Attributes.TITLE, "a post's"),
                item(KeyPlan.USER_GROUP.key("ann", "g1"), Attributes.GROUP_NAME, "a group's"));

        StreamReset.Reset reset = RESET.reset("ann", partition, EVENTS);

        assertEquals(List.of(), reset.deletes(), "the profile stays: its postCount is the post streams'");
        assertEquals(1, reset.resets().size());
        String emptied = reset.resets().get(0).toString();
        assertTrue(emptied.contains(Attributes.NAME) && emptied.contains("userVersion") && emptied.contains("nickname"),
                emptied);
        assertFalse(emptied.contains(Attributes.POST_COUNT), "counted by the post streams: " + emptied);
        assertFalse(emptied.contains(TableWriter.PENDING_COUNTS), "their counts in flight: " + emptied);
        assertFalse(emptied.contains("GROUP#") || emptied.contains("POST#"), "no summary, no membership: " + emptied);
        assertNull(reset.counter());
        assertEquals(Set.of(), reset.tokens());
    }

    @Test
    void aProfileWithNothingOfTheUsersStreamOrNoneIsLeftAsItIs() {
        Map<String, AttributeValue> counted = new HashMap<>(item(KeyPlan.USER_PROFILE.key("ann"),
                Attributes.POST_COUNT, "x"));
        assertEquals(List.of(), RESET.reset("ann", List.of(counted), EVENTS).resets());
        assertEquals(List.of(), RESET.reset("ann", List.of(), EVENTS).resets());
    }

    /** Emptied, an erased profile would answer 200 and take the person's commands until its erasure is replayed. */
    @Test
    void anErasedProfileIsLeftAsTheErasureLeftIt() {
        Map<String, AttributeValue> erased = new HashMap<>(item(KeyPlan.USER_PROFILE.key("ann"),
                Attributes.NAME, "[erased]"));
        erased.put(Attributes.ERASED_AT, AttributeValue.fromS("2026-06-02T10:00:00.000Z"));
        erased.put("userVersion", AttributeValue.fromN("2"));
        assertEquals(List.of(), RESET.reset("ann", List.of(erased), EVENTS).resets());
    }

    @Test
    void aKeyIsAUserStreamWhenItsEventsNameItAsTheirUser() {
        assertEquals("USER#ann", RESET.partition("ann"));
        assertTrue(RESET.owns(item(KeyPlan.USER_PROFILE.key("ann"), Attributes.NAME, "Ann")));
        assertFalse(RESET.owns(item(KeyPlan.USER_GROUP.key("ann", "g1"), Attributes.GROUP_NAME, "G")));
        assertEquals(Optional.empty(), RESET.notAStream("ann", EVENTS));
        assertTrue(RESET.notAStream("bob", EVENTS).orElseThrow().contains("not a user's"));
    }
}
