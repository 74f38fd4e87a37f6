package dev.cabinet.post;

import java.time.Instant;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
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

import dev.cabinet.auth.Caller;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.Problems;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequests;
import dev.cabinet.table.Ids;
import dev.cabinet.table.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * A post's comments: listing them (pattern 4, no token needed), commenting (a registered user, on a post that exists),
 * and deleting (the comment's author or the post's author). All of {@code /posts/{id}/comments} lives in this class, as
 * JAX-RS matches the class by its path before it looks at methods.
 */
@Path("/posts/{postId}/comments")
@Produces(MediaType.APPLICATION_JSON)
public class CommentResource {

    private final EventLog log;
    private final Caller caller;
    private final UserQueries users;
    private final PostQueries posts;
    private final PageRequests pages;

    CommentResource(EventLog log, Caller caller, UserQueries users, PostQueries posts, PageRequests pages) {
        this.log = log;
        this.caller = caller;
        this.users = users;
        this.posts = posts;
        this.pages = pages;
    }

    @GET
    public Uni<Page<CommentView>> listComments(@PathParam("postId") String postId, @QueryParam("order") String order,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        Ids.require("postId", postId);
        if (order != null && !order.equals("asc") && !order.equals("desc")) {
            throw Problems.badRequest("order", "must be 'asc' (oldest first, the default) or 'desc' (newest first)");
        }
        return posts.listComments(postId, "desc".equals(order), pages.of(limit, cursor));
    }

    /**
     * The post must exist when the command is accepted (404 otherwise). If it is deleted before the projector reaches
     * the comment, the projector rejects the comment and records why under its event id.
     */
    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> addComment(@PathParam("postId") String postId, @Valid @NotNull NewCommentRequest body) {
        Ids.require("postId", postId);
        String author = caller.id();
        String commentId = log.newId();
        return users.isRegistered(author)
                .invoke(registered -> {
                    if (!registered) {
                        throw Problems.conflict("register your profile with PUT /users/" + author + " before commenting");
                    }
                })
                .chain(registered -> posts.findPost(postId))
                .map(post -> post.orElseThrow(() -> Problems.notFound("post", postId)))
                .chain(post -> log.append(CommentEvent.ADDED, new CommentAdded(postId, commentId, author, body.text(),
                        Timestamps.format(Instant.now())), author))
                .map(appended -> Accepted.response(appended, commentId, "/posts/" + postId + "/comments"));
    }

    @DELETE
    @Path("{commentId}")
    @Authenticated
    public Uni<Response> deleteComment(@PathParam("postId") String postId, @PathParam("commentId") String commentId) {
        Ids.require("postId", postId);
        Ids.require("commentId", commentId);
        String actor = caller.id();
        return posts.findComment(commentId)
                .map(found -> found.filter(comment -> comment.postId().equals(postId))
                        .orElseThrow(() -> Problems.notFound("comment", commentId)))
                .chain(comment -> comment.authorId().equals(actor) ? Uni.createFrom().item(comment)
                        : posts.findPost(postId).map(post -> {
                            if (post.isEmpty() || !post.get().authorId().equals(actor)) {
                                throw Problems.forbidden("only the comment's author or the post's author may delete "
                                        + "comment " + commentId);
                            }
                            return comment;
                        }))
                .chain(comment -> log.append(CommentEvent.DELETED, new CommentDeleted(postId, commentId,
                        comment.createdAt()), actor))
                .map(appended -> Accepted.response(appended, commentId, "/posts/" + postId + "/comments"));
    }
}
