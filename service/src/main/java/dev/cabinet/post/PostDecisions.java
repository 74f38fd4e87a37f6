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

    /** {@code author} writes {@code post} as a draft at {@code now}; the post's id is made by the API. */
    public record CreatePost(String postId, String author, NewPostRequest post, String now) {
    }

    /** {@code actor} changes the post's fields that {@code change} gives. */
    public record EditPost(String postId, String actor, PostChangeRequest change) {
    }

    /** {@code actor} publishes the post at {@code now}. */
    public record PublishPost(String postId, String actor, String now) {
    }

    /** {@code actor} deletes the post at {@code now}. */
    public record DeletePost(String postId, String actor, String now) {
    }

    private PostDecisions() {
    }

    /** {@code now} and the post's id are the resource's: a decision reads no clock and makes no id. */
    public static Decision create(CreatePost command, boolean registered) {
        NewPostRequest post = command.post();
        return Registration.required(registered, command.author(), "writing posts", () -> Decision.accept(
                PostEvent.CREATED, new PostCreated(command.postId(), command.author(), post.title(), post.body(),
                        command.now())));
    }

    /** {@code post} is null when it does not exist (or no longer does). */
    public static Decision edit(EditPost command, PostView post) {
        String postId = command.postId();
        return byAuthor(post, postId, command.actor(), () -> Decision.accept(PostEvent.EDITED,
                new PostEdited(postId, command.change().title(), command.change().body())));
    }

    /** Publishing twice is refused rather than ignored: a second publication would move the post in the feed. */
    public static Decision publish(PublishPost command, PostView post) {
        String postId = command.postId();
        return byAuthor(post, postId, command.actor(), () -> post.isPublished()
                ? Decision.refuse(Refusal.conflict("post " + postId + " is already published"))
                : Decision.accept(PostEvent.PUBLISHED, new PostPublished(postId, command.now())));
    }

    /** Deletes the post with all its comments. */
    public static Decision delete(DeletePost command, PostView post) {
        return byAuthor(post, command.postId(), command.actor(), () -> Decision.accept(PostEvent.DELETED,
                new PostDeleted(command.postId(), command.now())));
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
