package dev.cabinet.group;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.http.Deadline;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.shared.Ids;
import io.smallrye.mutiny.Uni;

/** A user's groups (access pattern 7); no token needed. */
@Deadline
@Path("/users/{id}/groups")
@Produces(MediaType.APPLICATION_JSON)
public class UserGroupsQueryResource {

    private final GroupQueries groups;
    private final PageRequests pages;

    UserGroupsQueryResource(GroupQueries groups, PageRequests pages) {
        this.groups = groups;
        this.pages = pages;
    }

    @GET
    @Operation(description = "The user's groups, each with its current name and the user's role.")
    public Uni<Page<MembershipView>> listGroupsOfUser(@PathParam("id") String id,
            @BeanParam PageParameters page) {
        Ids.require("id", id);
        return groups.listGroupsOfUser(id, pages.of(page.limit(), page.cursor()));
    }
}
