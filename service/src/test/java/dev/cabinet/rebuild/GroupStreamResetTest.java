package dev.cabinet.rebuild;

import static dev.cabinet.rebuild.RecordedEvents.event;
import static dev.cabinet.rebuild.RecordedEvents.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items a group stream's rebuild resets: its partition (metadata, memberCount shards, members) and the user side
 * of every membership its events name, ended ones too; the profiles it copies names from stay (no I/O).
 */
class GroupStreamResetTest {

    private static final GroupStreamReset RESET = new GroupStreamReset();
    private static final String AT = "2026-06-01T10:00:00.000Z";
    private static final List<RecordedEvent> EVENTS = List.of(
            event(Topics.GROUPS, "g1", 0, "e-created", "{\"groupId\":\"g1\",\"name\":\"Climbers\",\"creatorId\":\"ann\","
                    + "\"createdAt\":\"" + AT + "\"}"),
            event(Topics.GROUPS, "g1", 1, "e-joined", "{\"groupId\":\"g1\",\"userId\":\"bob\",\"role\":\"member\","
                    + "\"joinedAt\":\"" + AT + "\"}"),
            event(Topics.GROUPS, "g1", 2, "e-renamed", "{\"groupId\":\"g1\",\"name\":\"Hikers\"}"),
            event(Topics.GROUPS, "g1", 3, "e-joined-2", "{\"groupId\":\"g1\",\"userId\":\"cy\",\"role\":\"member\","
                    + "\"joinedAt\":\"" + AT + "\"}"),
            event(Topics.GROUPS, "g1", 4, "e-left", "{\"groupId\":\"g1\",\"userId\":\"cy\"}"),
            event(Topics.GROUPS, "g1", 5, "e-role", "{\"groupId\":\"g1\",\"userId\":\"bob\",\"role\":\"admin\"}"));

    @Test
    void theGroupsPartitionAndTheUserSideOfEveryMembershipItsEventsNameAreDeletedAndNoCountIsHeld() {
        List<Map<String, AttributeValue>> partition = List.of(
                item(KeyPlan.GROUP.key("g1"), Attributes.NAME, "Hikers"),
                item(KeyPlan.GROUP_COUNTER.key("g1", 0), Attributes.MEMBER_COUNT, "1"),
                item(KeyPlan.GROUP_MEMBER.key("g1", "ann"), Attributes.USER_NAME, "Ann"),
                item(KeyPlan.GROUP_MEMBER.key("g1", "bob"), Attributes.USER_NAME, "Bob"),
                item(KeyPlan.GROUP.key("g2"), Attributes.NAME, "another group's"));

        StreamReset.Reset reset = RESET.reset("g1", partition, EVENTS);

        assertEquals(List.of(KeyPlan.GROUP.key("g1"), KeyPlan.GROUP_COUNTER.key("g1", 0),
                KeyPlan.GROUP_MEMBER.key("g1", "ann"), KeyPlan.GROUP_MEMBER.key("g1", "bob"),
                KeyPlan.USER_GROUP.key("ann", "g1"), KeyPlan.USER_GROUP.key("bob", "g1"),
                KeyPlan.USER_GROUP.key("cy", "g1")), reset.deletes(),
                "the metadata, its count shards, both sides of each membership; no profile, no other group's item");
        assertEquals(List.of(), reset.resets(), "memberCount and adminCount are the group's own: counted again");
        assertNull(reset.counter(), "a group counts on no other aggregate's item");
        assertEquals(Set.of(), reset.tokens());
    }

    @Test
    void theStreamsItemsInItsPartitionAreTheMetadataTheShardsAndTheMembers() {
        assertEquals("GROUP#g1", RESET.partition("g1"));
        assertTrue(RESET.owns(item(KeyPlan.GROUP_COUNTER.key("g1", 3), Attributes.MEMBER_COUNT, "2")));
        assertTrue(RESET.owns(item(KeyPlan.GROUP_MEMBER.key("g1", "ann"), Attributes.USER_NAME, "Ann")));
        assertFalse(RESET.owns(item(KeyPlan.USER_PROFILE.key("ann"), Attributes.NAME, "Ann")));
    }

    @Test
    void theMembersAreTheCreatorAndEveryUserAnEventNamesOnceEach() {
        assertEquals(List.of("ann", "bob", "cy"), List.copyOf(GroupStreamReset.members(EVENTS)));
    }

    @Test
    void aKeyIsAGroupStreamWhenItsEventsNameItAsTheirGroup() {
        assertEquals(Optional.empty(), RESET.notAStream("g1", EVENTS));
        assertTrue(RESET.notAStream("ann", EVENTS).orElseThrow().contains("not a group's"));
    }
}
