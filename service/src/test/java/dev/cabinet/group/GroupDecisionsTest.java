package dev.cabinet.group;

import static dev.cabinet.decision.Rules.NOW;
import static dev.cabinet.decision.Rules.appends;
import static dev.cabinet.decision.Rules.conflict;
import static dev.cabinet.decision.Rules.forbidden;
import static dev.cabinet.decision.Rules.notFound;
import static dev.cabinet.decision.Rules.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.decision.Decision;
import dev.cabinet.group.GroupDecisions.ChangeRole;
import dev.cabinet.group.GroupDecisions.CreateGroup;
import dev.cabinet.group.GroupDecisions.Join;
import dev.cabinet.group.GroupDecisions.Leave;
import dev.cabinet.group.GroupDecisions.RenameGroup;
import dev.cabinet.group.GroupDecisions.Seen;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;

/**
 * The rules of group commands, given the group and the memberships a resource reads (ada is the admin, bob a member);
 * no Quarkus, no table.
 */
class GroupDecisionsTest {

    private static final String ADMIN = GroupRole.ADMIN;
    private static final String MEMBER = GroupRole.MEMBER;
    private static final MembershipView ADA = membership("ada", ADMIN);
    private static final MembershipView BOB = membership("bob", MEMBER);
    /** ada and bob; ada is the only admin. */
    private static final GroupView TWO_ONE_ADMIN = group(2, 1);

    @ParameterizedTest(name = "{0}")
    @MethodSource({ "creating", "renaming", "joining", "changingRoles", "leaving" })
    void followsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> creating() {
        NewGroupRequest engines = new NewGroupRequest("Engines", null);
        return Stream.of(
                rule("a registered user creates a group, becoming its first admin",
                        GroupDecisions.create(new CreateGroup("g1", "ada", engines, NOW), true),
                        appends(GroupEvent.CREATED, new GroupCreated("g1", "Engines", null, "ada", NOW))),
                rule("a user who has not registered is told to register before creating groups",
                        GroupDecisions.create(new CreateGroup("g1", "ada", engines, NOW), false),
                        conflict("register your profile with PUT /users/ada before creating groups")));
    }

    static Stream<Arguments> renaming() {
        GroupChangeRequest rename = new GroupChangeRequest("Difference engines", null);
        return Stream.of(
                rule("an admin renames the group",
                        GroupDecisions.rename(new RenameGroup("g1", rename), TWO_ONE_ADMIN, ADA),
                        appends(GroupEvent.RENAMED, new GroupRenamed("g1", "Difference engines", null))),
                rule("a member who is not an admin may not rename the group",
                        GroupDecisions.rename(new RenameGroup("g1", rename), TWO_ONE_ADMIN, BOB),
                        forbidden("only an admin of group g1 may rename group g1")),
                rule("a user outside the group may not rename it",
                        GroupDecisions.rename(new RenameGroup("g1", rename), TWO_ONE_ADMIN, null),
                        forbidden("only an admin of group g1 may rename group g1")),
                rule("a group that does not exist cannot be renamed",
                        GroupDecisions.rename(new RenameGroup("g1", rename), null, null),
                        notFound("group g1 does not exist")));
    }

    static Stream<Arguments> joining() {
        return Stream.of(
                rule("anyone registered joins a group themself, as a member",
                        GroupDecisions.join(new Join("g1", "cy", MEMBER, "cy", NOW),
                                new Seen(TWO_ONE_ADMIN, null, null), true),
                        appends(GroupEvent.MEMBER_JOINED, new MemberJoined("g1", "cy", MEMBER, NOW))),
                rule("joining oneself as an admin takes an admin",
                        GroupDecisions.join(new Join("g1", "cy", ADMIN, "cy", NOW),
                                new Seen(TWO_ONE_ADMIN, null, null), true),
                        forbidden("only an admin of group g1 may join group g1 as an admin")),
                rule("an admin adds another registered user, with the role asked for",
                        GroupDecisions.join(new Join("g1", "cy", ADMIN, "ada", NOW),
                                new Seen(TWO_ONE_ADMIN, ADA, null), true),
                        appends(GroupEvent.MEMBER_JOINED, new MemberJoined("g1", "cy", ADMIN, NOW))),
                rule("a member who is not an admin may not add someone else",
                        GroupDecisions.join(new Join("g1", "cy", MEMBER, "bob", NOW),
                                new Seen(TWO_ONE_ADMIN, BOB, null), true),
                        forbidden("only an admin of group g1 may add user cy to group g1")),
                rule("a user who never registered cannot be added",
                        GroupDecisions.join(new Join("g1", "cy", MEMBER, "ada", NOW),
                                new Seen(TWO_ONE_ADMIN, ADA, null), false),
                        notFound("user cy does not exist")),
                rule("joining oneself before registering is the conflict every such command answers",
                        GroupDecisions.join(new Join("g1", "cy", MEMBER, "cy", NOW),
                                new Seen(TWO_ONE_ADMIN, null, null), false),
                        conflict("register your profile with PUT /users/cy before joining groups")),
                rule("joining a group one is already in changes nothing, whatever role was asked for",
                        GroupDecisions.join(new Join("g1", "bob", MEMBER, "bob", NOW),
                                new Seen(TWO_ONE_ADMIN, BOB, BOB), true),
                        Decision.unchanged()),
                rule("a group its last admin left empty is joined whatever role was asked, as a member: the projector"
                        + " makes the first joiner in log order its admin, so two racing in do not both become one",
                        GroupDecisions.join(new Join("g1", "cy", ADMIN, "cy", NOW),
                                new Seen(group(0, 0), null, null), true),
                        appends(GroupEvent.MEMBER_JOINED, new MemberJoined("g1", "cy", MEMBER, NOW))),
                rule("but adds no one else to it: an empty group has no admin to do that",
                        GroupDecisions.join(new Join("g1", "cy", MEMBER, "bob", NOW),
                                new Seen(group(0, 0), null, null), true),
                        forbidden("only an admin of group g1 may add user cy to group g1")),
                rule("no one joins a group that does not exist",
                        GroupDecisions.join(new Join("g1", "cy", MEMBER, "cy", NOW), new Seen(null, null, null), true),
                        notFound("group g1 does not exist")));
    }

    static Stream<Arguments> changingRoles() {
        return Stream.of(
                rule("an admin makes a member an admin",
                        GroupDecisions.changeRole(new ChangeRole("g1", "bob", ADMIN, false),
                                new Seen(TWO_ONE_ADMIN, ADA, BOB)),
                        appends(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged("g1", "bob", ADMIN))),
                rule("a member who is not an admin may not change roles, not even their own",
                        GroupDecisions.changeRole(new ChangeRole("g1", "bob", ADMIN, false),
                                new Seen(TWO_ONE_ADMIN, BOB, BOB)),
                        forbidden("only an admin of group g1 may change roles in group g1")),
                rule("an operator, in no group, makes a member an admin: a group whose only admin was erased has no"
                        + " one else to",
                        GroupDecisions.changeRole(new ChangeRole("g1", "bob", ADMIN, true),
                                new Seen(TWO_ONE_ADMIN, null, BOB)),
                        appends(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged("g1", "bob", ADMIN))),
                rule("the role of a user outside the group is not found",
                        GroupDecisions.changeRole(new ChangeRole("g1", "cy", ADMIN, false),
                                new Seen(TWO_ONE_ADMIN, ADA, null)),
                        notFound("membership of user cy in group g1 does not exist")),
                rule("the only admin may not step down: the group would have no one to manage it",
                        GroupDecisions.changeRole(new ChangeRole("g1", "ada", MEMBER, false),
                                new Seen(TWO_ONE_ADMIN, ADA, ADA)),
                        conflict("ada is the last admin of group g1; make another member an admin first")),
                rule("one of two admins steps down",
                        GroupDecisions.changeRole(new ChangeRole("g1", "ada", MEMBER, false), new Seen(group(2, 2), ADA, ADA)),
                        appends(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged("g1", "ada", MEMBER))),
                rule("the only admin confirming their own role is no demotion",
                        GroupDecisions.changeRole(new ChangeRole("g1", "ada", ADMIN, false),
                                new Seen(TWO_ONE_ADMIN, ADA, ADA)),
                        appends(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged("g1", "ada", ADMIN))),
                rule("roles in a group that does not exist are not found",
                        GroupDecisions.changeRole(new ChangeRole("g1", "bob", ADMIN, false), new Seen(null, null, null)),
                        notFound("group g1 does not exist")));
    }

    static Stream<Arguments> leaving() {
        return Stream.of(
                rule("a member leaves",
                        GroupDecisions.leave(new Leave("g1", "bob", "bob"), new Seen(TWO_ONE_ADMIN, BOB, BOB)),
                        appends(GroupEvent.MEMBER_LEFT, new MemberLeft("g1", "bob"))),
                rule("an admin removes a member",
                        GroupDecisions.leave(new Leave("g1", "bob", "ada"), new Seen(TWO_ONE_ADMIN, ADA, BOB)),
                        appends(GroupEvent.MEMBER_LEFT, new MemberLeft("g1", "bob"))),
                rule("a member who is not an admin may not remove someone else",
                        GroupDecisions.leave(new Leave("g1", "ada", "bob"), new Seen(TWO_ONE_ADMIN, BOB, ADA)),
                        forbidden("only an admin of group g1 may remove user ada from group g1")),
                rule("one cannot leave a group one is not in",
                        GroupDecisions.leave(new Leave("g1", "cy", "cy"), new Seen(TWO_ONE_ADMIN, null, null)),
                        notFound("membership of user cy in group g1 does not exist")),
                rule("the last admin may not leave while other members remain",
                        GroupDecisions.leave(new Leave("g1", "ada", "ada"), new Seen(TWO_ONE_ADMIN, ADA, ADA)),
                        conflict("ada is the last admin of group g1; make another member an admin first")),
                rule("the last admin leaves a group with no other member",
                        GroupDecisions.leave(new Leave("g1", "ada", "ada"), new Seen(group(1, 1), ADA, ADA)),
                        appends(GroupEvent.MEMBER_LEFT, new MemberLeft("g1", "ada"))),
                rule("one of two admins leaves while members remain",
                        GroupDecisions.leave(new Leave("g1", "ada", "ada"), new Seen(group(3, 2), ADA, ADA)),
                        appends(GroupEvent.MEMBER_LEFT, new MemberLeft("g1", "ada"))),
                rule("no one leaves a group that does not exist",
                        GroupDecisions.leave(new Leave("g1", "bob", "bob"), new Seen(null, null, null)),
                        notFound("group g1 does not exist")));
    }

    private static GroupView group(long members, long admins) {
        return new GroupView("g1", "Engines", null, NOW, members, admins, null);
    }

    private static MembershipView membership(String userId, String role) {
        return new MembershipView("g1", userId, "Engines", role, NOW);
    }
}
