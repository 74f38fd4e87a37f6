package dev.cabinet.post;

import java.time.Instant;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.cabinet.auth.Caller;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.Problems;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.table.Ids;
import dev.cabinet.table.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** Commands on posts: a registered user writes posts; only a post's author edits, publishes or deletes it. */
@Path("/posts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class PostCommandResource {

    private final EventLog log;
    private final Caller caller;
    private final UserQueries users;
    private final PostQueries posts;

    PostCommandResource(EventLog log, Caller caller, UserQueries users, PostQueries posts) {
        this.log = log;
        this.caller = caller;
        this.users = users;
        this.posts = posts;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> createPost(@Valid @NotNull NewPostRequest body) {
        String author = caller.id();
        String postId = log.newId();
        return users.isRegistered(author)
                .invoke(registered -> {
                    if (!registered) {
                        throw Problems.conflict("register your profile with PUT /users/" + author + " before writing posts");
                    }
                })
                .chain(registered -> log.append(PostEvent.CREATED,
                        new PostCreated(postId, author, body.title(), body.body(), Timestamps.format(Instant.now())), author))
                .map(appended -> Accepted.response(appended, postId, "/posts/" + postId));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> editPost(@PathParam("id") String id, @Valid @NotNull PostChangeRequest body) {
        String actor = caller.id();
        return postOfAuthor(id, actor)
                .chain(post -> log.append(PostEvent.EDITED, new PostEdited(id, body.title(), body.body()), actor))
                .map(appended -> Accepted.response(appended, id, "/posts/" + id));
    }

    @POST
    @Path("{id}/publish")
    public Uni<Response> publishPost(@PathParam("id") String id) {
        String actor = caller.id();
        return postOfAuthor(id, actor)
                .invoke(post -> {
                    if (post.isPublished()) {
                        throw Problems.conflict("post " + id + " is already published");
                    }
                })
                .chain(post -> log.append(PostEvent.PUBLISHED, new PostPublished(id, Timestamps.format(Instant.now())),
                        actor))
                .map(appended -> Accepted.response(appended, id, "/posts/" + id));
    }

    /** Deletes the post with all its comments; only its author may. */
    @DELETE
    @Path("{id}")
    public Uni<Response> deletePost(@PathParam("id") String id) {
        String actor = caller.id();
        return postOfAuthor(id, actor)
                .chain(post -> log.append(PostEvent.DELETED, new PostDeleted(id, Timestamps.format(Instant.now())), actor))
                .map(appended -> Accepted.response(appended, id, "/posts/" + id));
    }

    private Uni<PostView> postOfAuthor(String postId, String actor) {
        Ids.require("id", postId);
        return posts.findPost(postId)
                .map(post -> post.orElseThrow(() -> Problems.notFound("post", postId)))
                .invoke(post -> {
                    if (!post.authorId().equals(actor)) {
                        throw Problems.forbidden("only the author of post " + postId + " may change it");
                    }
                });
    }
}
