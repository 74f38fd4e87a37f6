package dev.cabinet.post;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.LikeEvent.PostUnliked;
import dev.cabinet.user.Registration;

/** The rules of likes (pure): a command and what its reads found give the event or a refusal. */
public final class LikeDecisions {

    /** The caller ({@code userId}) likes or unlikes a post at {@code now}; no decision reads a clock. */
    public record LikeCommand(String postId, String userId, String now) {
    }

    private LikeDecisions() {
    }

    /**
     * A registered user likes an existing post. Whether they like it already is not asked: the read model may not have
     * applied their last like or unlike yet (a quick toggle), and only the log's order may decide which one holds; the
     * projector makes a like of a liked post change nothing.
     */
    public static Decision like(LikeCommand command, boolean postExists, boolean registered) {
        if (!postExists) {
            return Decision.refuse(Refusal.notFound("post", command.postId()));
        }
        return Registration.required(registered, command.userId(), "liking posts", () -> Decision.accept(
                LikeEvent.LIKED, new PostLiked(command.postId(), command.userId(), command.now())));
    }

    /** A user unlikes an existing post; as with a like, one they do not like is left to the projector (no change). */
    public static Decision unlike(LikeCommand command, boolean postExists) {
        if (!postExists) {
            return Decision.refuse(Refusal.notFound("post", command.postId()));
        }
        return Decision.accept(LikeEvent.UNLIKED, new PostUnliked(command.postId(), command.userId(), command.now()));
    }
}
