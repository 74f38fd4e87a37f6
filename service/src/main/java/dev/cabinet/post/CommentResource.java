package dev.cabinet.post;


import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.post.CommentDecisions.AddComment;
import dev.cabinet.post.CommentDecisions.DeleteComment;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * A post's comments: listing them (pattern 4, no token needed), commenting (a registered user, on a post that exists),
 * and deleting (the comment's author or the post's author). All of {@code /posts/{id}/comments} lives in this class, as
 * JAX-RS matches the class by its path before it looks at methods.
 */
@Deadline
@Path("/posts/{postId}/comments")
@Produces(MediaType.APPLICATION_JSON)
public class CommentResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final UserQueries users;
    private final PostQueries posts;
    private final PageRequests pages;

    CommentResource(CommandAnswers answers, Caller caller, UserQueries users, PostQueries posts, PageRequests pages) {
        this.answers = answers;
        this.caller = caller;
        this.users = users;
        this.posts = posts;
        this.pages = pages;
    }

    @GET
    @Operation(description = "The post's comments, oldest first (`order=desc` for newest), each with its author's "
            + "current name and avatar.")
    public Uni<Page<CommentView>> listComments(@PathParam("postId") String postId, @QueryParam("order") String order,
            @BeanParam PageParameters page) {
        Ids.require("postId", postId);
        if (order != null && !order.equals("asc") && !order.equals("desc")) {
            throw Problems.badRequest("order", "must be 'asc' (oldest first, the default) or 'desc' (newest first)");
        }
        return posts.listComments(postId, "desc".equals(order), pages.of(page.limit(), page.cursor()));
    }

    /**
     * The post must exist when the command is accepted (404 otherwise). If it is deleted before the projector reaches
     * the comment, the projector rejects the comment and records why under its event id.
     */
    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Comments on a post (`text`); the caller must be registered (409) and the post must "
            + "exist (404).")
    public Uni<Response> addComment(@PathParam("postId") String postId, @Valid @NotNull NewCommentRequest body) {
        Ids.require("postId", postId);
        String author = caller.id();
        String commentId = answers.newId();
        return Uni.combine().all().unis(users.isRegistered(author), posts.findPost(postId)).asTuple()
                .map(read -> CommentDecisions.add(new AddComment(postId, commentId, author, body.text(),
                        Timestamps.format(answers.now())), read.getItem2().orElse(null), read.getItem1()))
                .chain(decision -> answers.accepted(decision, author, commentId, "/posts/" + postId + "/comments"));
    }

    @DELETE
    @Path("{commentId}")
    @Authenticated
    @Operation(description = "Deletes a comment: its author or the post's author only.")
    public Uni<Response> deleteComment(@PathParam("postId") String postId, @PathParam("commentId") String commentId) {
        Ids.require("postId", postId);
        Ids.require("commentId", commentId);
        String actor = caller.id();
        return Uni.combine().all().unis(posts.findComment(commentId), posts.findPost(postId),
                        users.requireNotErased(actor)).asTuple()
                .map(read -> CommentDecisions.delete(new DeleteComment(postId, commentId, actor),
                        read.getItem1().orElse(null), read.getItem2().orElse(null)))
                .chain(decision -> answers.accepted(decision, actor, commentId, "/posts/" + postId + "/comments"));
    }
}
