package dev.cabinet.post;

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

/** A user's comments, newest first (access pattern 6, GSI2); no token needed. */
@Deadline
@Path("/users/{id}/comments")
@Produces(MediaType.APPLICATION_JSON)
public class UserCommentsQueryResource {

    private final PostQueries posts;
    private final PageRequests pages;

    UserCommentsQueryResource(PostQueries posts, PageRequests pages) {
        this.posts = posts;
        this.pages = pages;
    }

    @GET
    @Operation(description = "The user's comments on all posts, newest first.")
    public Uni<Page<CommentView>> listCommentsOfUser(@PathParam("id") String id,
            @BeanParam PageParameters page) {
        Ids.require("id", id);
        return posts.listCommentsOfUser(id, pages.of(page.limit(), page.cursor()));
    }
}
