package dev.cabinet.group;

import java.time.Instant;

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

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.Problems;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;
import dev.cabinet.table.Ids;
import dev.cabinet.table.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Commands on groups. A registered user creates a group and becomes its admin; admins rename it, add members and
 * change roles; anyone may join themself and leave; the last admin of a group with other members must hand over first.
 */
@Path("/groups")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class GroupCommandResource {

    private final EventLog log;
    private final Caller caller;
    private final UserQueries users;
    private final GroupQueries groups;

    GroupCommandResource(EventLog log, Caller caller, UserQueries users, GroupQueries groups) {
        this.log = log;
        this.caller = caller;
        this.users = users;
        this.groups = groups;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> createGroup(@Valid @NotNull NewGroupRequest body) {
        String creator = caller.id();
        String groupId = log.newId();
        return users.isRegistered(creator)
                .invoke(registered -> {
                    if (!registered) {
                        throw Problems.conflict("register your profile with PUT /users/" + creator + " before creating groups");
                    }
                })
                .chain(registered -> log.append(GroupEvent.CREATED, new GroupCreated(groupId, body.name(), body.description(),
                        creator, Timestamps.format(Instant.now())), creator))
                .map(appended -> Accepted.response(appended, groupId, "/groups/" + groupId));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> changeGroup(@PathParam("id") String id, @Valid @NotNull GroupChangeRequest body) {
        String actor = caller.id();
        return existingGroup(id)
                .chain(group -> requireAdmin(id, actor, "rename group " + id))
                .chain(admin -> log.append(GroupEvent.RENAMED, new GroupRenamed(id, body.name(), body.description()),
                        actor))
                .map(appended -> Accepted.response(appended, id, "/groups/" + id));
    }

    /**
     * Joins yourself (as a member), or, as an admin, adds anyone registered with the role the body names (member by
     * default). Joining a group one is already in answers 200 with the membership and appends nothing.
     */
    @Operation(operationId = "joinGroup")
    @PUT
    @Path("{id}/members/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> join(@PathParam("id") String id, @PathParam("userId") String userId, @Valid RoleRequest body) {
        Ids.require("userId", userId);
        String actor = caller.id();
        String role = body == null ? GroupRole.MEMBER : body.role();
        Uni<Void> allowed = actor.equals(userId) && GroupRole.MEMBER.equals(role) ? Uni.createFrom().voidItem()
                : requireAdmin(id, actor, actor.equals(userId) ? "join group " + id + " as an admin"
                        : "add user " + userId + " to group " + id).replaceWithVoid();
        return existingGroup(id)
                .chain(group -> allowed)
                .chain(() -> users.findProfile(userId))
                .map(profile -> profile.orElseThrow(() -> Problems.notFound("user", userId)))
                .chain(profile -> groups.findMembership(id, userId))
                .chain(existing -> existing.isPresent()
                        ? Uni.createFrom().item(Response.ok(existing.get()).build())
                        : log.append(GroupEvent.MEMBER_JOINED, new MemberJoined(id, userId, role,
                                Timestamps.format(Instant.now())), actor)
                                .map(appended -> Accepted.response(appended, userId, membershipPath(id, userId))));
    }

    @PATCH
    @Path("{id}/members/{userId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> changeRole(@PathParam("id") String id, @PathParam("userId") String userId,
            @Valid @NotNull RoleRequest body) {
        Ids.require("userId", userId);
        String actor = caller.id();
        return existingGroup(id)
                .chain(group -> requireAdmin(id, actor, "change roles in group " + id)
                        .chain(admin -> existingMembership(id, userId))
                        .invoke(member -> {
                            if (member.isAdmin() && !GroupRole.ADMIN.equals(body.role()) && group.adminCount() <= 1) {
                                throw lastAdmin(id, userId);
                            }
                        }))
                .chain(member -> log.append(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged(id, userId,
                        body.role()), actor))
                .map(appended -> Accepted.response(appended, userId, membershipPath(id, userId)));
    }

    /** Leaves (yourself) or removes (an admin); the last admin may only leave a group that has no other member. */
    @Operation(operationId = "leaveGroup")
    @DELETE
    @Path("{id}/members/{userId}")
    public Uni<Response> leave(@PathParam("id") String id, @PathParam("userId") String userId) {
        Ids.require("userId", userId);
        String actor = caller.id();
        Uni<Void> allowed = actor.equals(userId) ? Uni.createFrom().voidItem()
                : requireAdmin(id, actor, "remove user " + userId + " from group " + id).replaceWithVoid();
        return existingGroup(id)
                .chain(group -> allowed
                        .chain(() -> existingMembership(id, userId))
                        .invoke(member -> {
                            if (member.isAdmin() && group.adminCount() <= 1 && group.memberCount() > 1) {
                                throw lastAdmin(id, userId);
                            }
                        }))
                .chain(member -> log.append(GroupEvent.MEMBER_LEFT, new MemberLeft(id, userId), actor))
                .map(appended -> Accepted.response(appended, userId, membershipPath(id, userId)));
    }

    private Uni<GroupView> existingGroup(String groupId) {
        Ids.require("id", groupId);
        return groups.findGroup(groupId).map(group -> group.orElseThrow(() -> Problems.notFound("group", groupId)));
    }

    private Uni<MembershipView> existingMembership(String groupId, String userId) {
        return groups.findMembership(groupId, userId).map(member -> member.orElseThrow(() -> Problems.notFound(
                "membership of user " + userId + " in group", groupId)));
    }

    private Uni<MembershipView> requireAdmin(String groupId, String actor, String action) {
        return groups.findMembership(groupId, actor).map(member -> member.filter(MembershipView::isAdmin)
                .orElseThrow(() -> Problems.forbidden("only an admin of group " + groupId + " may " + action)));
    }

    private static RuntimeException lastAdmin(String groupId, String userId) {
        return Problems.conflict(userId + " is the last admin of group " + groupId
                + "; make another member an admin first");
    }

    private static String membershipPath(String groupId, String userId) {
        return "/groups/" + groupId + "/members/" + userId;
    }
}
