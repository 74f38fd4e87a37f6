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
 * Each command is a record ({@link CreateGroup}, {@link RenameGroup}, {@link Join}, {@link ChangeRole}, {@link Leave});
 * a membership command is decided with what its reads found ({@link Seen}).
 */
public final class GroupDecisions {

    /** {@code creator} creates the group described by {@code group} at {@code now}; its id is made by the API. */
    public record CreateGroup(String groupId, String creator, NewGroupRequest group, String now) {
    }

    /** An admin changes the group's name and/or description as {@code change} gives them. */
    public record RenameGroup(String groupId, GroupChangeRequest change) {
    }

    /** {@code actor} adds {@code userId} (themself, or as an admin anyone) with {@code role}, at {@code now}. */
    public record Join(String groupId, String userId, String role, String actor, String now) {
    }

    /**
     * An admin gives {@code userId} the role {@code role}; or an operator ({@code byOperator}), who may in any group:
     * the way out for a group no admin can manage any more, such as one whose only admin was erased.
     */
    public record ChangeRole(String groupId, String userId, String role, boolean byOperator) {
    }

    /** {@code actor} removes {@code userId} (themself, or as an admin anyone). */
    public record Leave(String groupId, String userId, String actor) {
    }

    /**
     * What a membership command's rules look at: the group, the actor's membership and that of the user the command is
     * about (the same when they are one), each null when it does not exist.
     */
    public record Seen(GroupView group, MembershipView callerMembership, MembershipView membership) {
    }

    private GroupDecisions() {
    }

    public static Decision create(CreateGroup command, boolean registered) {
        NewGroupRequest group = command.group();
        return Registration.required(registered, command.creator(), "creating groups", () -> Decision.accept(
                GroupEvent.CREATED, new GroupCreated(command.groupId(), group.name(), group.description(),
                        command.creator(), command.now())));
    }

    public static Decision rename(RenameGroup command, GroupView group, MembershipView callerMembership) {
        String groupId = command.groupId();
        GroupChangeRequest change = command.change();
        if (group == null) {
            return notFound(groupId);
        }
        if (!isAdmin(callerMembership)) {
            return onlyAdmins(groupId, "rename group " + groupId);
        }
        return Decision.accept(GroupEvent.RENAMED, new GroupRenamed(groupId, change.name(), change.description()));
    }

    /**
     * Joining oneself as a member needs no admin; anything else (joining as an admin, adding someone) does. Joining a
     * group one is already in changes nothing (the answer shows the membership), whatever role was asked for: roles
     * change through {@link #changeRole}. Joining a group with no admin (its last admin left it empty) makes the joiner
     * its admin, which the projector decides.
     */
    public static Decision join(Join command, Seen seen, boolean userRegistered) {
        String groupId = command.groupId();
        if (seen.group() == null) {
            return notFound(groupId);
        }
        boolean self = command.actor().equals(command.userId());
        // A group its last admin left (alone in it, so it has no one) is joined by its next member as its admin: else
        // no one could ever manage it again, and a group with members keeps an admin.
        boolean adminless = seen.group().adminCount() == 0;
        if (!(self && (adminless || GroupRole.MEMBER.equals(command.role()))) && !isAdmin(seen.callerMembership())) {
            return onlyAdmins(groupId, self ? "join group " + groupId + " as an admin"
                    : "add user " + command.userId() + " to group " + groupId);
        }
        if (!userRegistered) {
            // Joining oneself before registering is the conflict every such command answers; adding a user who never
            // registered names someone who does not exist.
            return self ? Registration.required(false, command.userId(), "joining groups", Decision::unchanged)
                    : Decision.refuse(Refusal.notFound("user", command.userId()));
        }
        if (seen.membership() != null) {
            return Decision.unchanged();
        }
        // Only an admin's word makes an admin. A joiner let in because the group looked adminless joins as a member,
        // and the projector makes them its admin if the group has none when the join is applied: decided in log
        // order, so of two joiners racing into an empty group only the first becomes its admin, not both.
        String role = isAdmin(seen.callerMembership()) ? command.role() : GroupRole.MEMBER;
        return Decision.accept(GroupEvent.MEMBER_JOINED, new MemberJoined(groupId, command.userId(), role,
                command.now()));
    }

    /** Demoting the only admin is refused: the group would be left with no one to manage it. */
    public static Decision changeRole(ChangeRole command, Seen seen) {
        String groupId = command.groupId();
        if (seen.group() == null) {
            return notFound(groupId);
        }
        if (!command.byOperator() && !isAdmin(seen.callerMembership())) {
            return onlyAdmins(groupId, "change roles in group " + groupId);
        }
        if (seen.membership() == null) {
            return membershipNotFound(groupId, command.userId());
        }
        if (seen.membership().isAdmin() && !GroupRole.ADMIN.equals(command.role()) && seen.group().adminCount() <= 1) {
            return lastAdmin(groupId, command.userId());
        }
        return Decision.accept(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged(groupId, command.userId(),
                command.role()));
    }

    /**
     * Anyone leaves; only an admin removes someone else. The last admin may leave only a group with no other member
     * (which then has none): leaving others behind without an admin is refused.
     */
    public static Decision leave(Leave command, Seen seen) {
        String groupId = command.groupId();
        if (seen.group() == null) {
            return notFound(groupId);
        }
        if (!command.actor().equals(command.userId()) && !isAdmin(seen.callerMembership())) {
            return onlyAdmins(groupId, "remove user " + command.userId() + " from group " + groupId);
        }
        if (seen.membership() == null) {
            return membershipNotFound(groupId, command.userId());
        }
        if (seen.membership().isAdmin() && seen.group().adminCount() <= 1 && seen.group().memberCount() > 1) {
            return lastAdmin(groupId, command.userId());
        }
        return Decision.accept(GroupEvent.MEMBER_LEFT, new MemberLeft(groupId, command.userId()));
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
