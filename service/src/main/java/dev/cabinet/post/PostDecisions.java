package dev.cabinet.post;

import java.util.function.Supplier;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.user.Registration;

/** The rules of post commands: a registered user writes posts; only a post's author edits, publishes or deletes it. */
public final class PostDecisions {

    private PostDecisions() {
    }

    /** {@code now} and {@code postId} are the resource's: a decision reads no clock and makes no id. */
    public static Decision create(String postId, String author, NewPostRequest body, String now, boolean registered) {
        return Registration.required(registered, author, "writing posts", () -> Decision.accept(PostEvent.CREATED,
                new PostCreated(postId, author, body.title(), body.body(), now)));
    }

    /** {@code post} is null when it does not exist (or no longer does). */
    public static Decision edit(PostView post, String postId, String actor, PostChangeRequest body) {
        return byAuthor(post, postId, actor, () -> Decision.accept(PostEvent.EDITED,
                new PostEdited(postId, body.title(), body.body())));
    }

    /** Publishing twice is refused rather than ignored: a second publication would move the post in the feed. */
    public static Decision publish(PostView post, String postId, String actor, String now) {
        return byAuthor(post, postId, actor, () -> post.isPublished()
                ? Decision.refuse(Refusal.conflict("post " + postId + " is already published"))
                : Decision.accept(PostEvent.PUBLISHED, new PostPublished(postId, now)));
    }

    /** Deletes the post with all its comments. */
    public static Decision delete(PostView post, String postId, String actor, String now) {
        return byAuthor(post, postId, actor, () -> Decision.accept(PostEvent.DELETED, new PostDeleted(postId, now)));
    }

    private static Decision byAuthor(PostView post, String postId, String actor, Supplier<Decision> then) {
        if (post == null) {
            return Decision.refuse(Refusal.notFound("post", postId));
        }
        if (!post.authorId().equals(actor)) {
            return Decision.refuse(Refusal.forbidden("only the author of post " + postId + " may change it"));
        }
        return then.get();
    }
}
