package dev.cabinet.post;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import dev.cabinet.http.Problems;
import dev.cabinet.table.Ids;
import io.smallrye.mutiny.Uni;

/** Reads of posts; no token needed. */
@Path("/posts")
@Produces(MediaType.APPLICATION_JSON)
public class PostQueryResource {

    private final PostQueries posts;

    PostQueryResource(PostQueries posts) {
        this.posts = posts;
    }

    @GET
    @Path("{id}")
    public Uni<PostView> getPost(@PathParam("id") String id) {
        Ids.require("id", id);
        return posts.findPost(id).map(post -> post.orElseThrow(() -> Problems.notFound("post", id)));
    }
}
