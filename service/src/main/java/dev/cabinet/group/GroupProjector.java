package dev.cabinet.group;

import static dev.cabinet.table.Attributes.ADMIN_COUNT;
import static dev.cabinet.table.Attributes.CREATED_AT;
import static dev.cabinet.table.Attributes.DESCRIPTION;
import static dev.cabinet.table.Attributes.FORMER_ROLE;
import static dev.cabinet.table.Attributes.GROUP_ID;
import static dev.cabinet.table.Attributes.GROUP_NAME;
import static dev.cabinet.table.Attributes.JOINED_AT;
import static dev.cabinet.table.Attributes.JOIN_VERSION;
import static dev.cabinet.table.Attributes.MEMBER_COUNT;
import static dev.cabinet.table.Attributes.NAME;
import static dev.cabinet.table.Attributes.ROLE;
import static dev.cabinet.table.Attributes.SHARD;
import static dev.cabinet.table.Attributes.USER_ID;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.Shards;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.CountersConfig;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what group events do to the group's root and to both sides of each membership. adminCount changes in the
 * root's own update, which is made once per event; memberCount is on the group's counter shards
 * ({@link KeyPlan#GROUP_COUNTER}, the shard from the member's id), changed by a write of the group's own stream, which
 * the executor guards by the stream's version: both stay exact under redelivery and redo. The rules that need the
 * current member (is this the last admin?) are decided from the member item and the counts as they are in log order,
 * so a replay decides alike.
 */
@ApplicationScoped
public class GroupProjector implements Projector<GroupEvent> {

    private final int shards;

    @Inject
    GroupProjector(CountersConfig counters) {
        this(counters.shards());
    }

    GroupProjector(int shards) {
        this.shards = shards;
    }

    @Override
    public List<EventType<? extends GroupEvent>> eventTypes() {
        return List.of(GroupEvent.CREATED, GroupEvent.RENAMED, GroupEvent.MEMBER_JOINED, GroupEvent.MEMBER_LEFT,
                GroupEvent.MEMBER_ROLE_CHANGED);
    }

    @Override
    public StreamTarget target(GroupEvent event) {
        return event instanceof GroupCreated ? StreamTarget.creating(KeyPlan.GROUP_STREAM, event.groupId())
                : StreamTarget.of(KeyPlan.GROUP_STREAM, event.groupId());
    }

    /**
     * The member item for every rule about the member; the profile for every name copied onto a membership; for a
     * leaving member the memberCount shards too (read in the same round), since the last admin may only leave last.
     */
    @Override
    public List<Key> needs(GroupEvent event) {
        if (event instanceof GroupCreated e) {
            return List.of(profile(e.creatorId()));
        }
        if (event instanceof MemberJoined e) {
            return List.of(member(e.groupId(), e.userId()), profile(e.userId()));
        }
        if (event instanceof MemberLeft e) {
            List<Key> keys = new ArrayList<>(List.of(member(e.groupId(), e.userId())));
            keys.addAll(counters(e.groupId()));
            return keys;
        }
        if (event instanceof MemberRoleChanged e) {
            return List.of(member(e.groupId(), e.userId()));
        }
        return List.of();
    }

    @Override
    public WritePlan decide(GroupEvent event, Reads reads) {
        if (event instanceof GroupCreated e) {
            return created(e, reads);
        }
        if (event instanceof GroupRenamed e) {
            return renamed(e);
        }
        if (event instanceof MemberJoined e) {
            return joined(e, reads);
        }
        if (event instanceof MemberLeft e) {
            return left(e, reads);
        }
        return roleChanged((MemberRoleChanged) event, reads);
    }

    private WritePlan created(GroupCreated e, Reads reads) {
        Map<String, Object> group = new HashMap<>(Map.of(GROUP_ID, e.groupId(), NAME, e.name(),
                CREATED_AT, e.createdAt(), ADMIN_COUNT, 1));
        if (e.description() != null) {
            group.put(DESCRIPTION, e.description());
        }
        return withMembership(WritePlan.onRoot(KeyPlan.GROUP.write(group)).write(memberCount(e.groupId(),
                e.creatorId(), 1)), e.groupId(), e.name(), e.creatorId(), GroupRole.ADMIN, e.createdAt(), true, reads);
    }

    /** A null field stays as it was; a new name reaches the user side of every membership (pattern 8's members). */
    private static WritePlan renamed(GroupRenamed e) {
        if (e.name() == null && e.description() == null) {
            return WritePlan.onRoot();
        }
        ItemUpdate root = ItemUpdate.of(KeyPlan.GROUP.key(e.groupId()));
        if (e.name() != null) {
            root.set(NAME, e.name());
        }
        if (e.description() != null) {
            root.set(DESCRIPTION, e.description());
        }
        WritePlan plan = WritePlan.onRoot(root);
        if (e.name() != null) {
            KeyQuery members = KeyQuery.of(Index.TABLE, KeyPlan.GROUP_MEMBER.partition(e.groupId()),
                    SortKeyCondition.beginsWith(KeyPlan.GROUP_MEMBER.sk().prefix()), false);
            // the executor writes a fan-out's change only onto items that exist: an ended membership stays ended
            plan.then(new FanOut(members, KeyPlan.USER_GROUP, ItemUpdate.change().set(GROUP_NAME, e.name())));
        }
        return plan;
    }

    /**
     * Counted only when the user was not a member yet: joining again changes no count (and no role, see below). A
     * member this very event made (an attempt that crashed before its recording) joined by it: its joinVersion is the
     * event's, so the member write may go out with the recording.
     */
    private WritePlan joined(MemberJoined e, Reads reads) {
        Key key = member(e.groupId(), e.userId());
        Optional<Map<String, AttributeValue>> member = reads.item(key);
        boolean joins = member.isEmpty() || reads.writtenByThisEvent(key)
                && Items.number(member.get(), JOIN_VERSION) == reads.version();
        // Joining a group with no admin (its last admin left it empty) makes the joiner its admin, decided here in log
        // order too: a join the API accepted while that admin was still there is applied after the leave.
        Map<String, AttributeValue> group = reads.existingRoot();
        String role = joins && group.containsKey(ADMIN_COUNT) && Items.number(group, ADMIN_COUNT) == 0
                ? GroupRole.ADMIN : e.role();
        WritePlan plan = joins ? counts(e.groupId(), e.userId(), 1, GroupRole.ADMIN.equals(role) ? 1 : 0)
                : WritePlan.onRoot();
        // joinVersion only on a member this event makes: a member from before joinVersion existed, joining again,
        // must not look made by this event
        return withMembership(plan, e.groupId(), Items.string(group, NAME), e.userId(), role,
                e.joinedAt(), joins, reads).decidesAlikeAfterWriting(key);
    }

    /** Leaving a group one is not in changes nothing; the last admin may only leave as the last member. */
    private WritePlan left(MemberLeft e, Reads reads) {
        Optional<Map<String, AttributeValue>> member = reads.item(member(e.groupId(), e.userId()));
        if (member.isEmpty()) {
            return WritePlan.onRoot();
        }
        Map<String, AttributeValue> group = reads.existingRoot();
        boolean admin = isAdmin(member.get());
        List<Map<String, AttributeValue>> shardsRead = counters(e.groupId()).stream()
                .flatMap(counter -> reads.item(counter).stream()).toList();
        if (admin && Items.number(group, ADMIN_COUNT) == 1
                && Shards.sum(shardsRead, KeyPlan.GROUP_COUNTER, MEMBER_COUNT) > 1) {
            return WritePlan.reject(lastAdmin(e.groupId(), e.userId()));
        }
        return counts(e.groupId(), e.userId(), -1, admin ? -1 : 0)
                .delete(member(e.groupId(), e.userId()))
                .delete(membership(e.userId(), e.groupId()));
    }

    private WritePlan roleChanged(MemberRoleChanged e, Reads reads) {
        Key key = member(e.groupId(), e.userId());
        Optional<Map<String, AttributeValue>> member = reads.item(key);
        if (member.isEmpty()) {
            return WritePlan.reject(e.userId() + " is not a member of group " + e.groupId());
        }
        // The role before this event; where this very event wrote the new one already (an attempt that crashed before
        // its recording), the one that write kept: so the change may go out with the recording and count alike.
        String before = Items.string(member.get(), reads.writtenByThisEvent(key) ? FORMER_ROLE : ROLE);
        boolean wasAdmin = GroupRole.ADMIN.equals(before);
        boolean isAdmin = GroupRole.ADMIN.equals(e.role());
        if (wasAdmin && !isAdmin && Items.number(reads.existingRoot(), ADMIN_COUNT) == 1) {
            return WritePlan.reject(lastAdmin(e.groupId(), e.userId()));
        }
        // onlyIfExists: the role of a membership that ended meanwhile is not written back
        return counts(e.groupId(), e.userId(), 0, (isAdmin ? 1 : 0) - (wasAdmin ? 1 : 0))
                .write(ItemUpdate.of(key).set(ROLE, e.role()).set(FORMER_ROLE, before).onlyIfExists())
                .write(ItemUpdate.of(membership(e.userId(), e.groupId())).set(ROLE, e.role()).onlyIfExists())
                .decidesAlikeAfterWriting(key);
    }

    /**
     * Both sides of a membership, each with the other side's name (the member's copied as the key plan declares it,
     * {@link KeyPlan#MEMBER_NAME}), and the second look at the profile the copy was taken from. The role and join time
     * of an existing membership stay as they are: joining again is not a way to change one's role. {@code joins}: the
     * member is new, and keeps the version of the event that made it (joinVersion).
     */
    private static WritePlan withMembership(WritePlan plan, String groupId, String groupName, String userId,
            String role, String joinedAt, boolean joins, Reads reads) {
        Optional<Map<String, AttributeValue>> profile = reads.item(profile(userId));
        ItemUpdate groupSide = KeyPlan.MEMBER_NAME.copyOnto(
                KeyPlan.GROUP_MEMBER.write(Map.of(GROUP_ID, groupId, USER_ID, userId)), profile)
                .setIfAbsent(ROLE, role)
                .setIfAbsent(JOINED_AT, joinedAt);
        if (joins) {
            groupSide.setIfAbsent(JOIN_VERSION, reads.version());
        }
        ItemUpdate userSide = KeyPlan.USER_GROUP.write(Map.of(GROUP_ID, groupId, USER_ID, userId, GROUP_NAME, groupName))
                .setIfAbsent(ROLE, role)
                .setIfAbsent(JOINED_AT, joinedAt);
        return plan.write(groupSide)
                .write(userSide)
                .then(new CopyCheck(profile(userId), KeyPlan.MEMBER_NAME.versionOf(profile),
                        List.of(member(groupId, userId))));
    }

    /**
     * The count changes: adminCount in the root's update (just the event recorded on the root when it does not
     * change), memberCount on the member's shard.
     */
    private WritePlan counts(String groupId, String userId, long members, long admins) {
        WritePlan plan = admins == 0 ? WritePlan.onRoot()
                : WritePlan.onRoot(ItemUpdate.of(KeyPlan.GROUP.key(groupId)).increment(ADMIN_COUNT, admins));
        return members == 0 ? plan : plan.write(memberCount(groupId, userId, members));
    }

    /**
     * {@code delta} on the group's memberCount, on the member's shard: a write of the group's stream, which the
     * executor guards by the stream's version, so a redo or redelivery does not count it twice.
     */
    private ItemUpdate memberCount(String groupId, String userId, long delta) {
        return KeyPlan.GROUP_COUNTER.write(Map.of(GROUP_ID, groupId, SHARD, Shards.of(userId, shards)))
                .increment(MEMBER_COUNT, delta);
    }

    /** Every memberCount shard of the group. */
    private List<Key> counters(String groupId) {
        return Shards.keys(KeyPlan.GROUP_COUNTER, groupId, shards);
    }

    private static String lastAdmin(String groupId, String userId) {
        return userId + " is the last admin of group " + groupId + "; make another member an admin first";
    }

    private static boolean isAdmin(Map<String, AttributeValue> member) {
        return GroupRole.ADMIN.equals(Items.string(member, ROLE));
    }

    /** Membership, group side (pattern 8's items): holds the copy of the user's name. */
    private static Key member(String groupId, String userId) {
        return KeyPlan.GROUP_MEMBER.key(groupId, userId);
    }

    /** Membership, user side (patterns 7 and 9). */
    private static Key membership(String userId, String groupId) {
        return KeyPlan.USER_GROUP.key(userId, groupId);
    }

    private static Key profile(String userId) {
        return KeyPlan.USER_STREAM.rootKey(userId);
    }
}
