package dev.cabinet.post;


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

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.post.PostDecisions.CreatePost;
import dev.cabinet.post.PostDecisions.DeletePost;
import dev.cabinet.post.PostDecisions.EditPost;
import dev.cabinet.post.PostDecisions.PublishPost;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** Commands on posts: a registered user writes posts; only a post's author edits, publishes or deletes it. */
@Deadline
@Path("/posts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class PostCommandResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final UserQueries users;
    private final PostQueries posts;

    PostCommandResource(CommandAnswers answers, Caller caller, UserQueries users, PostQueries posts) {
        this.answers = answers;
        this.caller = caller;
        this.users = users;
        this.posts = posts;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Writes a post (`title`, `body`) as a draft; the caller must have registered (409 "
            + "otherwise).")
    public Uni<Response> createPost(@Valid @NotNull NewPostRequest body) {
        String author = caller.id();
        String postId = answers.newId();
        return users.isRegistered(author)
                .map(registered -> PostDecisions.create(new CreatePost(postId, author, body,
                        Timestamps.format(answers.now())), registered))
                .chain(decision -> answers.accepted(decision, author, postId, "/posts/" + postId));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Changes a post's `title` and/or `body` (its author only).")
    public Uni<Response> editPost(@PathParam("id") String id, @Valid @NotNull PostChangeRequest body) {
        String actor = caller.id();
        return post(id, actor)
                .map(post -> PostDecisions.edit(new EditPost(id, actor, body), post))
                .chain(decision -> answers.accepted(decision, actor, id, "/posts/" + id));
    }

    @POST
    @Path("{id}/publish")
    @Operation(description = "Publishes a post (its author only; 409 when published already): it enters the feed.")
    public Uni<Response> publishPost(@PathParam("id") String id) {
        String actor = caller.id();
        return post(id, actor)
                .map(post -> PostDecisions.publish(new PublishPost(id, actor, Timestamps.format(answers.now())), post))
                .chain(decision -> answers.accepted(decision, actor, id, "/posts/" + id));
    }

    /** Deletes the post with all its comments; only its author may. */
    @DELETE
    @Path("{id}")
    @Operation(description = "Deletes a post with its comments, likes, summary and feed entry (its author only).")
    public Uni<Response> deletePost(@PathParam("id") String id) {
        String actor = caller.id();
        return post(id, actor)
                .map(post -> PostDecisions.delete(new DeletePost(id, actor, Timestamps.format(answers.now())), post))
                .chain(decision -> answers.accepted(decision, actor, id, "/posts/" + id));
    }

    /**
     * The post as the decisions read it (null when it does not exist), read beside the actor's profile: an erased
     * person's token, still valid, changes no post (410).
     */
    private Uni<PostView> post(String postId, String actor) {
        return Uni.combine().all().unis(posts.findPost(Ids.require("id", postId)), users.requireNotErased(actor))
                .asTuple().map(read -> read.getItem1().orElse(null));
    }
}
