package dev.cabinet.group;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.shared.Ids;
import io.smallrye.mutiny.Uni;

/** Reads of groups and their members; no token needed. */
@Deadline
@Path("/groups")
@Produces(MediaType.APPLICATION_JSON)
public class GroupQueryResource {

    private final GroupQueries groups;
    private final PageRequests pages;

    GroupQueryResource(GroupQueries groups, PageRequests pages) {
        this.groups = groups;
        this.pages = pages;
    }

    @GET
    @Path("{id}")
    @Operation(description = "A group with its `memberCount` and `adminCount`.")
    public Uni<GroupView> getGroup(@PathParam("id") String id) {
        Ids.require("id", id);
        return groups.findGroup(id).map(group -> group.orElseThrow(() -> Problems.notFound("group", id)));
    }

    @GET
    @Path("{id}/members")
    @Operation(description = "The group's members, by user id, each with their current name and role.")
    public Uni<Page<MemberView>> listMembers(@PathParam("id") String id, @BeanParam PageParameters page) {
        Ids.require("id", id);
        return groups.listMembers(id, pages.of(page.limit(), page.cursor()));
    }

    /** 200 with the membership, or 404: one GetItem (pattern 9). */
    @GET
    @Path("{id}/members/{userId}")
    @Operation(description = "One membership: 200, or 404 when the user is not a member.")
    public Uni<MembershipView> getMembership(@PathParam("id") String id, @PathParam("userId") String userId) {
        Ids.require("id", id);
        Ids.require("userId", userId);
        return groups.findMembership(id, userId).map(membership -> membership.orElseThrow(() -> Problems.notFound(
                "membership of user " + userId + " in group", id)));
    }
}
