package dev.cabinet.post;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.user.Registration;

/** The rules of comment commands: a registered user comments on a post that exists; its author or the post's deletes. */
public final class CommentDecisions {

    /** {@code author} comments {@code text} on the post at {@code now}; the comment's id is made by the API. */
    public record AddComment(String postId, String commentId, String author, String text, String now) {
    }

    /** {@code actor} deletes the comment under the post. */
    public record DeleteComment(String postId, String commentId, String actor) {
    }

    private CommentDecisions() {
    }

    /**
     * {@code post} is null when it does not exist. It may still be deleted before the projector reaches the comment:
     * the projector then rejects the comment, which is why this check is a courtesy, not the guarantee.
     */
    public static Decision add(AddComment command, PostView post, boolean registered) {
        return Registration.required(registered, command.author(), "commenting", () -> post == null
                ? Decision.refuse(Refusal.notFound("post", command.postId()))
                : Decision.accept(CommentEvent.ADDED, new CommentAdded(command.postId(), command.commentId(),
                        command.author(), command.text(), command.now())));
    }

    /**
     * {@code comment} and {@code post} are null when absent. A comment under another post is not found here, so that
     * a path cannot reach a comment through a post the caller wrote. The deletion carries the comment's own
     * {@code createdAt}, which its key holds.
     */
    public static Decision delete(DeleteComment command, CommentView comment, PostView post) {
        String postId = command.postId();
        String commentId = command.commentId();
        String actor = command.actor();
        if (comment == null || !comment.postId().equals(postId)) {
            return Decision.refuse(Refusal.notFound("comment", commentId));
        }
        if (!comment.authorId().equals(actor) && (post == null || !post.authorId().equals(actor))) {
            return Decision.refuse(Refusal.forbidden("only the comment's author or the post's author may delete "
                    + "comment " + commentId));
        }
        return Decision.accept(CommentEvent.DELETED, new CommentDeleted(postId, commentId, comment.createdAt()));
    }
}
