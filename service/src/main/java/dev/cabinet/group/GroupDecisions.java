package dev.cabinet.group;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;
import dev.cabinet.user.Registration;

/**
 * The rules of group commands. A registered user creates a group and becomes its admin; admins rename it, add members
 * and change roles; anyone joins themself and leaves; a group that has other members always keeps an admin.
 * Every view argument is null when its item does not exist: {@code group} the group, {@code callerMembership} the
 * actor's membership, {@code membership} that of the user the command is about.
 */
public final class GroupDecisions {

    private GroupDecisions() {
    }

    public static Decision create(String groupId, String creator, NewGroupRequest body, String now, boolean registered) {
        return Registration.required(registered, creator, "creating groups", () -> Decision.accept(GroupEvent.CREATED,
                new GroupCreated(groupId, body.name(), body.description(), creator, now)));
    }

    public static Decision rename(String groupId, GroupChangeRequest body, GroupView group,
            MembershipView callerMembership) {
        if (group == null) {
            return notFound(groupId);
        }
        if (!isAdmin(callerMembership)) {
            return onlyAdmins(groupId, "rename group " + groupId);
        }
        return Decision.accept(GroupEvent.RENAMED, new GroupRenamed(groupId, body.name(), body.description()));
    }

    /**
     * Joining oneself as a member needs no admin; anything else (joining as an admin, adding someone) does. Joining a
     * group one is already in changes nothing (the answer shows the membership), whatever role was asked for: roles
     * change through {@link #changeRole}.
     */
    public static Decision join(String groupId, String userId, String role, String actor, String now, GroupView group,
            MembershipView callerMembership, boolean userRegistered, MembershipView membership) {
        if (group == null) {
            return notFound(groupId);
        }
        boolean self = actor.equals(userId);
        if (!(self && GroupRole.MEMBER.equals(role)) && !isAdmin(callerMembership)) {
            return onlyAdmins(groupId, self ? "join group " + groupId + " as an admin"
                    : "add user " + userId + " to group " + groupId);
        }
        if (!userRegistered) {
            return Decision.refuse(Refusal.notFound("user", userId));
        }
        if (membership != null) {
            return Decision.unchanged();
        }
        return Decision.accept(GroupEvent.MEMBER_JOINED, new MemberJoined(groupId, userId, role, now));
    }

    /** Demoting the only admin is refused: the group would be left with no one to manage it. */
    public static Decision changeRole(String groupId, String userId, String role, GroupView group,
            MembershipView callerMembership, MembershipView membership) {
        if (group == null) {
            return notFound(groupId);
        }
        if (!isAdmin(callerMembership)) {
            return onlyAdmins(groupId, "change roles in group " + groupId);
        }
        if (membership == null) {
            return membershipNotFound(groupId, userId);
        }
        if (membership.isAdmin() && !GroupRole.ADMIN.equals(role) && group.adminCount() <= 1) {
            return lastAdmin(groupId, userId);
        }
        return Decision.accept(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged(groupId, userId, role));
    }

    /**
     * Anyone leaves; only an admin removes someone else. The last admin may leave only a group with no other member
     * (which then has none): leaving others behind without an admin is refused.
     */
    public static Decision leave(String groupId, String userId, String actor, GroupView group,
            MembershipView callerMembership, MembershipView membership) {
        if (group == null) {
            return notFound(groupId);
        }
        if (!actor.equals(userId) && !isAdmin(callerMembership)) {
            return onlyAdmins(groupId, "remove user " + userId + " from group " + groupId);
        }
        if (membership == null) {
            return membershipNotFound(groupId, userId);
        }
        if (membership.isAdmin() && group.adminCount() <= 1 && group.memberCount() > 1) {
            return lastAdmin(groupId, userId);
        }
        return Decision.accept(GroupEvent.MEMBER_LEFT, new MemberLeft(groupId, userId));
    }

    private static boolean isAdmin(MembershipView membership) {
        return membership != null && membership.isAdmin();
    }

    private static Decision notFound(String groupId) {
        return Decision.refuse(Refusal.notFound("group", groupId));
    }

    private static Decision membershipNotFound(String groupId, String userId) {
        return Decision.refuse(Refusal.notFound("membership of user " + userId + " in group", groupId));
    }

    private static Decision onlyAdmins(String groupId, String action) {
        return Decision.refuse(Refusal.forbidden("only an admin of group " + groupId + " may " + action));
    }

    private static Decision lastAdmin(String groupId, String userId) {
        return Decision.refuse(Refusal.conflict(userId + " is the last admin of group " + groupId
                + "; make another member an admin first"));
    }
}
