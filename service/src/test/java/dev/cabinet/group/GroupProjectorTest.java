package dev.cabinet.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.table.AttributeValues;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The group projector's decisions, event type by event type: given the items read, the plan it returns. The reads are
 * built from what {@code needs} declares (an item read without being declared fails, as it would in the executor).
 */
class GroupProjectorTest {

    private static final int SHARDS = 4;
    private static final GroupProjector PROJECTOR = new GroupProjector(SHARDS);
    private static final String AT = "2026-01-02T10:00:00.000Z";
    /** The version the event decided gives the group's stream. */
    private static final long VERSION = 7;

    @Test
    void creatingAGroupCreatesItsStreamAndReadsTheCreatorsProfile() {
        GroupCreated created = new GroupCreated("g1", "Climbers", null, "u1", AT);
        StreamTarget target = PROJECTOR.target(created);
        assertTrue(target.creates());
        assertEquals(KeyPlan.GROUP_STREAM, target.stream());
        assertEquals(new Key("GROUP#g1", "METADATA"), target.root());
        assertEquals(List.of(new Key("USER#u1", "PROFILE")), PROJECTOR.needs(created));
    }

    @Test
    void everyOtherGroupEventNeedsTheGroupToExistAlready() {
        for (GroupEvent event : List.of(new GroupRenamed("g1", "New", null), new MemberJoined("g1", "u2", "member", AT),
                new MemberLeft("g1", "u2"), new MemberRoleChanged("g1", "u2", "admin"))) {
            StreamTarget target = PROJECTOR.target(event);
            assertFalse(target.creates(), event.toString());
            assertEquals(new Key("GROUP#g1", "METADATA"), target.root());
        }
    }

    @Test
    void theCreatorBecomesTheOnlyMemberAndAdminWithTheirNameCopiedAndCheckedAgain() {
        GroupCreated created = new GroupCreated("g1", "Climbers", "Weekend trips", "u1", AT);
        assertPlan(decide(created, new Given().profile("u1", "Ada", 3)),
                "root GROUP#g1/METADATA: SET type = \"Group\", groupId = \"g1\", name = \"Climbers\", "
                        + "description = \"Weekend trips\", createdAt = \"" + AT + "\", adminCount = 1",
                memberCount("u1", 1),
                "write GROUP#g1/USER#u1: SET type = \"GroupMember\", groupId = \"g1\", userId = \"u1\", "
                        + "userName = \"Ada\", profileVersion = 3, role = if_not_exists(role, \"admin\"), "
                        + "joinedAt = if_not_exists(joinedAt, \"" + AT + "\"), "
                        + "joinVersion = if_not_exists(joinVersion, 7)",
                "write USER#u1/GROUP#g1: SET type = \"UserGroup\", groupId = \"g1\", userId = \"u1\", "
                        + "groupName = \"Climbers\", role = if_not_exists(role, \"admin\"), "
                        + "joinedAt = if_not_exists(joinedAt, \"" + AT + "\")",
                "copy check USER#u1 / PROFILE copied at 3 for [GROUP#g1 / USER#u1]");
    }

    @Test
    void aGroupWithoutDescriptionStoresNoDescription() {
        WritePlan plan = decide(new GroupCreated("g1", "Climbers", null, "u1", AT), new Given().profile("u1", "Ada", 3));
        assertEquals("GROUP#g1/METADATA: SET type = \"Group\", groupId = \"g1\", name = \"Climbers\", createdAt = \""
                + AT + "\", adminCount = 1", plan.root().toString());
    }

    @Test
    void aCreatorWhoseProfileIsNotThereYetGetsNoNameAndAnyProfileVersionRefreshesIt() {
        List<String> plan = lines(decide(new GroupCreated("g1", "Climbers", null, "u1", AT), new Given()));
        assertEquals("write GROUP#g1/USER#u1: SET type = \"GroupMember\", groupId = \"g1\", userId = \"u1\", "
                + "profileVersion = -1, role = if_not_exists(role, \"admin\"), "
                + "joinedAt = if_not_exists(joinedAt, \"" + AT + "\"), joinVersion = if_not_exists(joinVersion, 7)",
                plan.get(2));
        assertEquals("copy check USER#u1 / PROFILE copied at -1 for [GROUP#g1 / USER#u1]", plan.get(4));
    }

    @Test
    void renamingTheGroupRenamesTheUserSideOfEveryExistingMembership() {
        assertPlan(decide(new GroupRenamed("g1", "Boulderers", "Indoor too"), new Given().group(2, 1)),
                "root GROUP#g1/METADATA: SET name = \"Boulderers\", description = \"Indoor too\"",
                "fan out over GROUP#g1 BEGINS_WITH USER# onto UserGroup: *: SET groupName = \"Boulderers\"");
    }

    @Test
    void changingOnlyTheDescriptionTouchesNoMembership() {
        assertPlan(decide(new GroupRenamed("g1", null, "Indoor too"), new Given().group(2, 1)),
                "root GROUP#g1/METADATA: SET description = \"Indoor too\"");
    }

    @Test
    void aChangeOfNeitherNameNorDescriptionOnlyRecordsTheEvent() {
        assertPlan(decide(new GroupRenamed("g1", null, null), new Given().group(2, 1)), "root (event recorded only)");
    }

    @Test
    void joiningNeedsTheMemberItemAndTheProfile() {
        assertEquals(List.of(new Key("GROUP#g1", "USER#u2"), new Key("USER#u2", "PROFILE")),
                PROJECTOR.needs(new MemberJoined("g1", "u2", "member", AT)));
    }

    @Test
    void leavingNeedsTheMemberItemAndEveryMemberCountShard() {
        assertEquals(List.of(new Key("GROUP#g1", "USER#u2"), new Key("GROUP#g1", "COUNT#0"),
                new Key("GROUP#g1", "COUNT#1"), new Key("GROUP#g1", "COUNT#2"), new Key("GROUP#g1", "COUNT#3")),
                PROJECTOR.needs(new MemberLeft("g1", "u2")));
    }

    @Test
    void aNewMemberIsCountedOnTheirShardAndGetsBothSidesWithTheGroupsCurrentName() {
        assertPlan(decide(new MemberJoined("g1", "u2", "member", AT),
                new Given().group(1, 1).named("Boulderers").profile("u2", "Grace", 5)),
                "root (event recorded only)",
                memberCount("u2", 1),
                "write GROUP#g1/USER#u2: SET type = \"GroupMember\", groupId = \"g1\", userId = \"u2\", "
                        + "userName = \"Grace\", profileVersion = 5, role = if_not_exists(role, \"member\"), "
                        + "joinedAt = if_not_exists(joinedAt, \"" + AT + "\"), "
                        + "joinVersion = if_not_exists(joinVersion, 7)",
                "write USER#u2/GROUP#g1: SET type = \"UserGroup\", groupId = \"g1\", userId = \"u2\", "
                        + "groupName = \"Boulderers\", role = if_not_exists(role, \"member\"), "
                        + "joinedAt = if_not_exists(joinedAt, \"" + AT + "\")",
                "copy check USER#u2 / PROFILE copied at 5 for [GROUP#g1 / USER#u2]");
    }

    @Test
    void aNewMemberJoiningAsAdminIsCountedAsAnAdminToo() {
        List<String> plan = lines(decide(new MemberJoined("g1", "u2", "admin", AT),
                new Given().group(1, 1).profile("u2", "Grace", 5)));
        assertEquals("root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + 1", plan.get(0));
        assertEquals(memberCount("u2", 1), plan.get(1));
    }

    @Test
    void aMemberJoiningAGroupItsLastAdminLeftEmptyBecomesItsAdmin() {
        List<String> plan = lines(decide(new MemberJoined("g1", "u2", "member", AT),
                new Given().group(0, 0).profile("u2", "Grace", 5)));
        assertEquals("root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + 1", plan.get(0));
        assertTrue(plan.get(2).contains("role = if_not_exists(role, \"admin\")"), plan.get(2));
    }

    @Test
    void aSecondJoinerTheApiLetInWhileTheGroupLookedAdminlessStaysAMember() {
        List<String> plan = lines(decide(new MemberJoined("g1", "u3", "member", AT),
                new Given().group(1, 1).profile("u3", "Ada", 5)));
        assertFalse(plan.get(0).contains("adminCount"), plan.get(0));
        assertTrue(plan.stream().anyMatch(line -> line.contains("role = if_not_exists(role, \"member\")")),
                String.join("\n", plan));
    }

    @Test
    void joiningAgainCountsNothingAndKeepsTheRoleAndJoinTime() {
        List<String> plan = lines(decide(new MemberJoined("g1", "u2", "admin", AT),
                new Given().group(2, 1).member("u2", "member").profile("u2", "Grace", 5)));
        assertEquals("root (event recorded only)", plan.get(0));
        // the writes only fill role and joinedAt where they are absent, so an existing membership keeps its own
        assertTrue(plan.get(1).contains("role = if_not_exists(role, \"admin\")"), plan.get(1));
        assertTrue(plan.get(2).contains("joinedAt = if_not_exists(joinedAt, \"" + AT + "\")"), plan.get(2));
        assertEquals(4, plan.size());
    }

    @Test
    void aLeavingMemberIsCountedOutAndBothSidesAreDeleted() {
        assertPlan(decide(new MemberLeft("g1", "u2"), new Given().group(2, 1).member("u2", "member")),
                "root (event recorded only)",
                memberCount("u2", -1),
                "delete GROUP#g1 / USER#u2",
                "delete USER#u2 / GROUP#g1");
    }

    @Test
    void anAdminLeavingWhileAnotherAdminStaysIsCountedOutAsAnAdminToo() {
        assertPlan(decide(new MemberLeft("g1", "u2"), new Given().group(3, 2).member("u2", "admin")),
                "root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + -1",
                memberCount("u2", -1),
                "delete GROUP#g1 / USER#u2",
                "delete USER#u2 / GROUP#g1");
    }

    @Test
    void theLastAdminCannotLeaveWhileOtherMembersStay() {
        assertPlan(decide(new MemberLeft("g1", "u1"), new Given().group(2, 1).member("u1", "admin")),
                "reject: u1 is the last admin of group g1; make another member an admin first");
    }

    @Test
    void theLastAdminWhoIsTheLastMemberMayLeaveAnEmptyGroup() {
        assertPlan(decide(new MemberLeft("g1", "u1"), new Given().group(1, 1).member("u1", "admin")),
                "root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + -1",
                memberCount("u1", -1),
                "delete GROUP#g1 / USER#u1",
                "delete USER#u1 / GROUP#g1");
    }

    @Test
    void leavingAGroupOneIsNotInOnlyRecordsTheEvent() {
        assertPlan(decide(new MemberLeft("g1", "u9"), new Given().group(2, 1)), "root (event recorded only)");
    }

    @Test
    void changingTheRoleOfSomeoneWhoIsNotAMemberIsRejected() {
        assertPlan(decide(new MemberRoleChanged("g1", "u9", "admin"), new Given().group(2, 1)),
                "reject: u9 is not a member of group g1");
    }

    @Test
    void theLastAdminCannotStepDown() {
        assertPlan(decide(new MemberRoleChanged("g1", "u1", "member"), new Given().group(2, 1).member("u1", "admin")),
                "reject: u1 is the last admin of group g1; make another member an admin first");
    }

    @Test
    void promotingAMemberCountsAnotherAdminAndSetsTheRoleOnBothSidesThatStillExist() {
        assertPlan(decide(new MemberRoleChanged("g1", "u2", "admin"), new Given().group(2, 1).member("u2", "member")),
                "root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + 1",
                "write GROUP#g1/USER#u2: SET role = \"admin\", formerRole = \"member\" IF attribute_exists(pk)",
                "write USER#u2/GROUP#g1: SET role = \"admin\" IF attribute_exists(pk)");
    }

    @Test
    void anAdminStepsDownWhileAnotherAdminStays() {
        assertPlan(decide(new MemberRoleChanged("g1", "u1", "member"), new Given().group(2, 2).member("u1", "admin")),
                "root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + -1",
                "write GROUP#g1/USER#u1: SET role = \"member\", formerRole = \"admin\" IF attribute_exists(pk)",
                "write USER#u1/GROUP#g1: SET role = \"member\" IF attribute_exists(pk)");
    }

    @Test
    void givingAMemberTheRoleTheyHaveChangesNoCount() {
        assertPlan(decide(new MemberRoleChanged("g1", "u1", "admin"), new Given().group(1, 1).member("u1", "admin")),
                "root (event recorded only)",
                "write GROUP#g1/USER#u1: SET role = \"admin\", formerRole = \"admin\" IF attribute_exists(pk)",
                "write USER#u1/GROUP#g1: SET role = \"admin\" IF attribute_exists(pk)");
    }

    /**
     * An attempt at this very join made the member and crashed before its recording: the member carries the event's
     * version and joined at it, so the join is counted as the first attempt counted it.
     */
    @Test
    void aMemberThisJoinMadeAlreadyIsCountedAsJoiningByIt() {
        WritePlan plan = decide(new MemberJoined("g1", "u2", "member", AT), new Given().group(1, 1)
                .memberWrittenByThisEvent("u2", "member", null, VERSION).profile("u2", "Grace", 5));
        assertEquals(memberCount("u2", 1), lines(plan).get(1));
        assertEquals(java.util.Set.of(KeyPlan.GROUP_MEMBER.key("g1", "u2")), plan.alikeAfterWriting());
    }

    @Test
    void aMemberThisJoinOnlyTouchedJoinedEarlierAndIsNotCountedAgain() {
        List<String> plan = lines(decide(new MemberJoined("g1", "u2", "member", AT), new Given().group(2, 1)
                .memberWrittenByThisEvent("u2", "member", null, 3).profile("u2", "Grace", 5)));
        assertEquals("root (event recorded only)", plan.get(0));
        assertEquals(4, plan.size());
        // joining again leaves joinVersion alone: a member from before it existed never gets this event's
        assertTrue(!plan.get(1).contains("joinVersion"), plan.get(1));
        List<String> older = lines(decide(new MemberJoined("g1", "u2", "member", AT), new Given().group(2, 1)
                .memberWrittenByThisEvent("u2", "member", null, -1).profile("u2", "Grace", 5)));
        assertEquals("root (event recorded only)", older.get(0));
    }

    /** An attempt at this role change wrote the new role and crashed before its recording: counted from the former. */
    @Test
    void aRoleThisChangeWroteAlreadyIsCountedFromTheRoleItKeptAsFormer() {
        assertPlan(decide(new MemberRoleChanged("g1", "u2", "admin"), new Given().group(2, 1)
                .memberWrittenByThisEvent("u2", "admin", "member", 3)),
                "root GROUP#g1/METADATA: SET adminCount = if_not_exists(adminCount, 0) + 1",
                "write GROUP#g1/USER#u2: SET role = \"admin\", formerRole = \"member\" IF attribute_exists(pk)",
                "write USER#u2/GROUP#g1: SET role = \"admin\" IF attribute_exists(pk)");
    }

    /** The items as the executor would find them: the group's root, its members, users' profiles. */
    private static final class Given {
        private Map<String, AttributeValue> root;
        private final Map<Key, Map<String, AttributeValue>> items = new HashMap<>();

        /** The group's root with its adminCount, and memberCount spread over the shards one member each in turn. */
        Given group(long memberCount, long adminCount) {
            root = item(Attributes.GROUP_ID, "g1", Attributes.NAME, "Climbers",
                    Attributes.ADMIN_COUNT, adminCount, KeyPlan.GROUP_STREAM.versionAttribute(), 4);
            for (int shard = 0; shard < SHARDS && shard < memberCount; shard++) {
                Key key = KeyPlan.GROUP_COUNTER.key("g1", shard);
                items.put(key, item(Key.PK, key.pk(), Key.SK, key.sk(), Attributes.MEMBER_COUNT,
                        memberCount / SHARDS + (shard < memberCount % SHARDS ? 1 : 0)));
            }
            return this;
        }

        Given named(String name) {
            root.put(Attributes.NAME, AttributeValues.of(name));
            return this;
        }

        Given member(String userId, String role) {
            items.put(KeyPlan.GROUP_MEMBER.key("g1", userId), item(Attributes.GROUP_ID, "g1", Attributes.USER_ID, userId,
                    Attributes.ROLE, role, KeyPlan.GROUP_STREAM.versionAttribute(), 2));
            return this;
        }

        /**
         * A member an attempt at the event decided wrote: it carries the event's version; {@code joinVersion} negative
         * for a member made before joinVersion existed.
         */
        Given memberWrittenByThisEvent(String userId, String role, String formerRole, long joinVersion) {
            Map<String, AttributeValue> member = item(Attributes.GROUP_ID, "g1", Attributes.USER_ID, userId,
                    Attributes.ROLE, role, KeyPlan.GROUP_STREAM.versionAttribute(), VERSION);
            if (joinVersion >= 0) {
                member.put(Attributes.JOIN_VERSION, AttributeValues.of(joinVersion));
            }
            if (formerRole != null) {
                member.put(Attributes.FORMER_ROLE, AttributeValues.of(formerRole));
            }
            items.put(KeyPlan.GROUP_MEMBER.key("g1", userId), member);
            return this;
        }

        Given profile(String userId, String name, long version) {
            items.put(KeyPlan.USER_PROFILE.key(userId), item(Attributes.USER_ID, userId, Attributes.NAME, name,
                    Attributes.REGISTERED_AT, AT, KeyPlan.USER_STREAM.versionAttribute(), version));
            return this;
        }

        /** What the executor reads for the event: the root and each item {@code needs} names (empty if not given). */
        Reads readsFor(GroupEvent event) {
            Map<Key, Optional<Map<String, AttributeValue>>> read = new HashMap<>();
            for (Key key : PROJECTOR.needs(event)) {
                read.put(key, Optional.ofNullable(items.get(key)));
            }
            return new Reads(Optional.ofNullable(root), read, Map.of(), KeyPlan.GROUP_STREAM.versionAttribute(),
                    VERSION);
        }

        private static Map<String, AttributeValue> item(Object... namesAndValues) {
            Map<String, AttributeValue> item = new HashMap<>();
            for (int i = 0; i < namesAndValues.length; i += 2) {
                item.put((String) namesAndValues[i], AttributeValues.of(namesAndValues[i + 1]));
            }
            return item;
        }
    }

    /** The write of a change of memberCount on the member's shard (the executor guards it by the group's version). */
    private static String memberCount(String userId, long delta) {
        return "write GROUP#g1/COUNT#" + Shards.of(userId, SHARDS) + ": SET type = \"GroupCounter\", "
                + "memberCount = if_not_exists(memberCount, 0) + " + delta;
    }

    private static WritePlan decide(GroupEvent event, Given given) {
        return PROJECTOR.decide(event, given.readsFor(event));
    }

    private static void assertPlan(WritePlan plan, String... expected) {
        assertEquals(List.of(expected), lines(plan));
    }

    /** The plan as lines to compare: the root write, then one line per step. */
    private static List<String> lines(WritePlan plan) {
        if (plan.rejection().isPresent()) {
            return List.of("reject: " + plan.rejection().get());
        }
        List<String> lines = new ArrayList<>();
        lines.add("root " + (plan.root() == null ? "(event recorded only)" : plan.root()));
        for (WritePlan.Step step : plan.steps()) {
            if (step instanceof Write write) {
                lines.add("write " + write.update());
            } else if (step instanceof Delete delete) {
                lines.add("delete " + delete.key());
            } else if (step instanceof CopyCheck check) {
                lines.add("copy check " + check.source() + " copied at " + check.copiedVersion() + " for "
                        + check.holders());
            } else if (step instanceof FanOut fanOut) {
                lines.add("fan out over " + fanOut.query().partition() + " " + fanOut.query().sortKey().kind() + " "
                        + fanOut.query().sortKey().from() + " onto " + fanOut.target() + ": " + fanOut.change());
            } else {
                lines.add(step.toString());
            }
        }
        return lines;
    }
}
