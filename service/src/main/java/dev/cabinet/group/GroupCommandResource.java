package dev.cabinet.group;

import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.group.GroupDecisions.ChangeRole;
import dev.cabinet.group.GroupDecisions.CreateGroup;
import dev.cabinet.group.GroupDecisions.Join;
import dev.cabinet.group.GroupDecisions.Leave;
import dev.cabinet.group.GroupDecisions.RenameGroup;
import dev.cabinet.group.GroupDecisions.Seen;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Commands on groups. A registered user creates a group and becomes its admin; admins rename it, add members and
 * change roles; anyone may join themself and leave; the last admin of a group with other members must hand over first.
 */
@Deadline
@Path("/groups")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class GroupCommandResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final UserQueries users;
    private final GroupQueries groups;

    GroupCommandResource(CommandAnswers answers, Caller caller, UserQueries users, GroupQueries groups) {
        this.answers = answers;
        this.caller = caller;
        this.users = users;
        this.groups = groups;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Creates a group (`name`, optional `description`); the caller becomes its admin.")
    public Uni<Response> createGroup(@Valid @NotNull NewGroupRequest body) {
        String creator = caller.id();
        String groupId = answers.newId();
        return users.isRegistered(creator)
                .map(registered -> GroupDecisions.create(new CreateGroup(groupId, creator, body,
                        Timestamps.format(answers.now())), registered))
                .chain(decision -> answers.accepted(decision, creator, groupId, "/groups/" + groupId));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Changes a group's `name` and/or `description` (admins only).")
    public Uni<Response> changeGroup(@PathParam("id") String id, @Valid @NotNull GroupChangeRequest body) {
        String actor = caller.id();
        return read(id, actor, actor)
                .map(seen -> GroupDecisions.rename(new RenameGroup(id, body), seen.group(), seen.callerMembership()))
                .chain(decision -> answers.accepted(decision, actor, id, "/groups/" + id));
    }

    /**
     * Joins yourself (as a member), or, as an admin, adds anyone registered with the role the body names (member by
     * default). Joining a group one is already in answers 200 with the membership and appends nothing.
     */
    @Operation(operationId = "joinGroup",
            description = "Joins oneself as a member; an admin may add "
            + "anyone registered, with an optional `role`. A member already: 200 with the membership.")
    @PUT
    @Path("{id}/members/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "A member already: nothing changed",
            content = @Content(schema = @Schema(implementation = MembershipView.class)))
    public Uni<Response> join(@PathParam("id") String id, @PathParam("userId") String userId,
            @RequestBody(required = false, description = "The role to join with; none joins as a member")
            @Valid RoleRequest body) {
        Ids.require("userId", userId);
        String actor = caller.id();
        String role = body == null ? GroupRole.MEMBER : body.role();
        // Joining oneself, the registration check of the joiner is the actor's own (an erased one fails it).
        Uni<Seen> seenNow = actor.equals(userId) ? readGroup(id, actor, userId) : read(id, actor, userId);
        return Uni.combine().all().unis(seenNow, users.isRegistered(userId)).asTuple()
                .chain(read -> {
                    Seen seen = read.getItem1();
                    Join command = new Join(id, userId, role, actor, Timestamps.format(answers.now()));
                    return answers.answer(GroupDecisions.join(command, seen, read.getItem2()), actor,
                            appended -> Accepted.response(appended, userId, membershipPath(id, userId)),
                            () -> Response.ok(seen.membership()).build());
                });
    }

    @PATCH
    @Path("{id}/members/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Changes a member's `role` (admins, and the `operator` role in any group; 409 for the "
            + "last admin; 410 for an erased member).")
    public Uni<Response> changeRole(@PathParam("id") String id, @PathParam("userId") String userId,
            @Valid @NotNull RoleRequest body) {
        Ids.require("userId", userId);
        String actor = caller.id();
        // An erased person is no one's to promote or demote (410); the group keeps their membership as it was.
        return Uni.combine().all().unis(read(id, actor, userId), caller.hasRole(Caller.OPERATOR),
                        actor.equals(userId) ? Uni.createFrom().voidItem() : users.requireNotErased(userId)).asTuple()
                .map(read -> GroupDecisions.changeRole(new ChangeRole(id, userId, body.role(), read.getItem2()),
                        read.getItem1()))
                .chain(decision -> answers.accepted(decision, actor, userId, membershipPath(id, userId)));
    }

    /** Leaves (yourself) or removes (an admin); the last admin may only leave a group that has no other member. */
    @Operation(operationId = "leaveGroup",
            description = "Leaves (oneself) or removes (admins) a "
            + "member; 409 for the last admin while others remain.")
    @DELETE
    @Path("{id}/members/{userId}")
    public Uni<Response> leave(@PathParam("id") String id, @PathParam("userId") String userId) {
        Ids.require("userId", userId);
        String actor = caller.id();
        return read(id, actor, userId)
                .map(seen -> GroupDecisions.leave(new Leave(id, userId, actor), seen))
                .chain(decision -> answers.accepted(decision, actor, userId, membershipPath(id, userId)));
    }

    /**
     * The group and the two memberships its rules look at, read concurrently (one read when the caller is the member),
     * with the caller's profile: an erased person's token, still valid, manages no group (410).
     */
    private Uni<Seen> read(String groupId, String actor, String userId) {
        return Uni.combine().all().unis(readGroup(groupId, actor, userId), users.requireNotErased(actor)).asTuple()
                .map(read -> read.getItem1());
    }

    private Uni<Seen> readGroup(String groupId, String actor, String userId) {
        Ids.require("id", groupId);
        boolean self = actor.equals(userId);
        return Uni.combine().all().unis(groups.findGroup(groupId), groups.findMembership(groupId, userId),
                        self ? Uni.createFrom().item(Optional.<MembershipView>empty()) : groups.findMembership(groupId, actor))
                .asTuple()
                .map(read -> new Seen(read.getItem1().orElse(null), (self ? read.getItem2() : read.getItem3()).orElse(null),
                        read.getItem2().orElse(null)));
    }

    private static String membershipPath(String groupId, String userId) {
        return "/groups/" + groupId + "/members/" + userId;
    }
}
