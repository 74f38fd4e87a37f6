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

/** A user's posts, newest first (access pattern 2); no token needed. An unknown user has an empty list. */
@Deadline
@Path("/users/{id}/posts")
@Produces(MediaType.APPLICATION_JSON)
public class UserPostsQueryResource {

    private final PostQueries posts;
    private final PageRequests pages;

    UserPostsQueryResource(PostQueries posts, PageRequests pages) {
        this.posts = posts;
        this.pages = pages;
    }

    @GET
    @Operation(description = "The user's posts, newest first.")
    public Uni<Page<PostSummaryView>> listPostsOfUser(@PathParam("id") String id, @BeanParam PageParameters page) {
        Ids.require("id", id);
        return posts.listPostsOfUser(id, pages.of(page.limit(), page.cursor()));
    }
}
