package dev.cabinet.post;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.shared.Ids;
import io.smallrye.mutiny.Uni;

/** Reads of posts and the published feed; no token needed. */
@Deadline
@Path("/posts")
@Produces(MediaType.APPLICATION_JSON)
public class PostQueryResource {

    private final PostQueries posts;
    private final PageRequests pages;

    PostQueryResource(PostQueries posts, PageRequests pages) {
        this.posts = posts;
        this.pages = pages;
    }

    /** The published feed (pattern 5); {@code status=published} is the only listing there is. */
    @GET
    @Operation(description = "The feed: every published post, newest first (`status=published`; no `body`).")
    public Uni<Page<PostView>> listPosts(@QueryParam("status") String status, @BeanParam PageParameters page) {
        if (!PostStatus.PUBLISHED.equals(status)) {
            throw Problems.badRequest("status", "must be 'published': the feed lists published posts only");
        }
        return posts.listPublished(pages.of(page.limit(), page.cursor()));
    }

    /** A post (GetItem), or with {@code include=comments} the post and its newest comments in one Query (pattern 3). */
    @GET
    @Path("{id}")
    @Operation(description = "A post's metadata; `include=comments` adds its newest comments from the same Query.")
    public Uni<PostView> getPost(@PathParam("id") String id, @QueryParam("include") String include,
            @QueryParam("limit") String limit) {
        Ids.require("id", id);
        if (include == null) {
            return posts.findPost(id).map(post -> post.orElseThrow(() -> Problems.notFound("post", id)));
        }
        if (!"comments".equals(include)) {
            throw Problems.badRequest("include", "must be 'comments'");
        }
        return posts.findPostWithComments(id, pages.limit(limit))
                .map(post -> post.orElseThrow(() -> Problems.notFound("post", id)));
    }
}
