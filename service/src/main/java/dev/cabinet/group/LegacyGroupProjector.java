package dev.cabinet.group;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.Rejections;
import dev.cabinet.projection.StreamRoot;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.Profiles;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Projects group events onto the group's metadata (the stream's root: see {@link Progress}) and both sides of each
 * membership. memberCount and adminCount change in the same conditional write that records the event on the root, so
 * they stay exact; the decisions that need the current members (is this the last admin?) are taken in log order, so a
 * replay takes them the same way.
 */
@ApplicationScoped
public class LegacyGroupProjector implements LegacyProjector {

    private final ProjectionStore store;
    private final StreamRoot root;
    private final Profiles profiles;
    private final Rejections rejections;

    LegacyGroupProjector(ProjectionStore store, StreamRoot root, Profiles profiles, Rejections rejections) {
        this.store = store;
        this.root = root;
        this.profiles = profiles;
        this.rejections = rejections;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(GroupEvent.CREATED, GroupEvent.RENAMED, GroupEvent.MEMBER_JOINED, GroupEvent.MEMBER_LEFT,
                GroupEvent.MEMBER_ROLE_CHANGED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        GroupEvent data = (GroupEvent) event.data();
        return root.apply(event, GroupKeys.metadata(data.groupId()), GroupKeys.VERSION, "group " + data.groupId(),
                data instanceof GroupCreated, (group, progress) -> {
                    if (data instanceof GroupCreated created) {
                        return created(created, progress, event.version());
                    }
                    if (data instanceof GroupRenamed renamed) {
                        return renamed(renamed, event.version());
                    }
                    if (data instanceof MemberJoined joined) {
                        return joined(joined, group.get(), progress, event.version());
                    }
                    if (data instanceof MemberLeft left) {
                        return left(left, group.get(), progress, event);
                    }
                    return roleChanged((MemberRoleChanged) data, group.get(), progress, event);
                });
    }

    private Uni<Void> created(GroupCreated e, Progress progress, long version) {
        Uni<Boolean> root = progress == Progress.NEW
                ? store.update(ItemUpdate.of(GroupKeys.metadata(e.groupId()), KeyPlan.GROUP.name())
                        .set("groupId", e.groupId())
                        .set("name", e.name())
                        .set("description", e.description())
                        .set("createdAt", e.createdAt())
                        .set("memberCount", 1)
                        .set("adminCount", 1)
                        .guardedBy(GroupKeys.VERSION, version))
                : Uni.createFrom().item(true);
        return root.chain(() -> writeMembership(e.groupId(), e.name(), e.creatorId(), GroupRole.ADMIN, e.createdAt(),
                version));
    }

    /** Renames the group, then walks its members (pattern 8's key condition) to rename their side of the membership. */
    private Uni<Void> renamed(GroupRenamed e, long version) {
        ItemUpdate root = ItemUpdate.of(GroupKeys.metadata(e.groupId())).guardedBy(GroupKeys.VERSION, version);
        if (e.name() != null) {
            root.set("name", e.name());
        }
        if (e.description() != null) {
            root.set("description", e.description());
        }
        Uni<Void> renamed = store.update(root).replaceWithVoid();
        if (e.name() == null) {
            return renamed;
        }
        KeyQuery members = KeyQuery.of(Index.TABLE, GroupKeys.groupPartition(e.groupId()),
                SortKeyCondition.beginsWith(GroupKeys.memberPrefix()), false);
        return renamed.chain(() -> store.forEach(members, member -> store.update(
                ItemUpdate.of(GroupKeys.membership(Items.string(member, "userId"), e.groupId()))
                        .set("groupName", e.name())
                        .onlyIfExists()
                        .guardedBy(GroupKeys.VERSION, version))))
                .replaceWithVoid();
    }

    private Uni<Void> joined(MemberJoined e, Map<String, AttributeValue> group, Progress progress, long version) {
        Uni<Boolean> counted = progress == Progress.REDO ? Uni.createFrom().item(true)
                : store.read(GroupKeys.member(e.groupId(), e.userId())).chain(member -> {
                    boolean joins = member.isEmpty();
                    return store.update(counts(e.groupId(), joins ? 1 : 0,
                            joins && GroupRole.ADMIN.equals(e.role()) ? 1 : 0, version));
                });
        return counted.chain(() -> writeMembership(e.groupId(), Items.string(group, "name"), e.userId(), e.role(),
                e.joinedAt(), version));
    }

    private Uni<Void> left(MemberLeft e, Map<String, AttributeValue> group, Progress progress, ReceivedEvent event) {
        long version = event.version();
        Uni<Void> removed = store.delete(GroupKeys.member(e.groupId(), e.userId()), GroupKeys.VERSION, version)
                .chain(() -> store.delete(GroupKeys.membership(e.userId(), e.groupId()), GroupKeys.VERSION, version))
                .replaceWithVoid();
        if (progress == Progress.REDO) {
            return removed;
        }
        return store.read(GroupKeys.member(e.groupId(), e.userId())).chain(member -> {
            if (member.isEmpty()) {
                return store.update(counts(e.groupId(), 0, 0, version)).replaceWithVoid();
            }
            boolean admin = isAdmin(member);
            if (admin && Items.number(group, "adminCount") == 1 && Items.number(group, "memberCount") > 1) {
                return rejections.reject(event, e.userId() + " is the last admin of group " + e.groupId()
                        + "; make another member an admin first");
            }
            return store.update(counts(e.groupId(), -1, admin ? -1 : 0, version)).chain(() -> removed);
        });
    }

    private Uni<Void> roleChanged(MemberRoleChanged e, Map<String, AttributeValue> group, Progress progress,
            ReceivedEvent event) {
        long version = event.version();
        Uni<Void> changed = store.update(ItemUpdate.of(GroupKeys.member(e.groupId(), e.userId())).set("role", e.role())
                .onlyIfExists().guardedBy(GroupKeys.VERSION, version))
                .chain(() -> store.update(ItemUpdate.of(GroupKeys.membership(e.userId(), e.groupId())).set("role", e.role())
                        .onlyIfExists().guardedBy(GroupKeys.VERSION, version)))
                .replaceWithVoid();
        if (progress == Progress.REDO) {
            return changed;
        }
        return store.read(GroupKeys.member(e.groupId(), e.userId())).chain(member -> {
            if (member.isEmpty()) {
                return rejections.reject(event, e.userId() + " is not a member of group " + e.groupId());
            }
            boolean wasAdmin = isAdmin(member);
            boolean isAdmin = GroupRole.ADMIN.equals(e.role());
            if (wasAdmin && !isAdmin && Items.number(group, "adminCount") == 1) {
                return rejections.reject(event, e.userId() + " is the last admin of group " + e.groupId()
                        + "; make another member an admin first");
            }
            return store.update(counts(e.groupId(), 0, (isAdmin ? 1 : 0) - (wasAdmin ? 1 : 0), version))
                    .chain(() -> changed);
        });
    }

    /**
     * Both sides of a membership, each with the other side's name. The role and join time of an existing membership
     * stay as they are: joining again is not a way to change one's role.
     */
    private Uni<Void> writeMembership(String groupId, String groupName, String userId, String role, String joinedAt,
            long version) {
        ItemUpdate userSide = ItemUpdate.of(GroupKeys.membership(userId, groupId), KeyPlan.USER_GROUP.name())
                .set("groupId", groupId)
                .set("userId", userId)
                .set("groupName", groupName)
                .setIfAbsent("role", role)
                .setIfAbsent("joinedAt", joinedAt)
                .guardedBy(GroupKeys.VERSION, version);
        return profiles.writeCopies(userId,
                profile -> store.update(profile.writeName(ItemUpdate.of(GroupKeys.member(groupId, userId),
                        KeyPlan.GROUP_MEMBER.name())
                        .set("groupId", groupId)
                        .set("userId", userId)
                        .setIfAbsent("role", role)
                        .setIfAbsent("joinedAt", joinedAt)
                        .guardedBy(GroupKeys.VERSION, version), "userName"))
                        .chain(() -> store.update(userSide)),
                profile -> MemberNameCopies.refresh(store, profile, groupId));
    }

    /** Records the event on the group's root, changing its counts in the same conditional write. */
    private static ItemUpdate counts(String groupId, long members, long admins, long version) {
        return ItemUpdate.of(GroupKeys.metadata(groupId))
                .increment("memberCount", members)
                .increment("adminCount", admins)
                .onlyIfExists()
                .guardedBy(GroupKeys.VERSION, version);
    }

    private static boolean isAdmin(Optional<Map<String, AttributeValue>> member) {
        return member.map(m -> GroupRole.ADMIN.equals(Items.string(m, "role"))).orElse(false);
    }
}
