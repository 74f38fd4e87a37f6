package dev.cabinet.post;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.LikeEvent.PostUnliked;
import dev.cabinet.user.Registration;

/** The rules of likes (pure): a command and what its reads found give the event, a refusal or no change. */
public final class LikeDecisions {

    /** The caller ({@code userId}) likes or unlikes a post at {@code now}; no decision reads a clock. */
    public record LikeCommand(String postId, String userId, String now) {
    }

    /** What the command's reads found: whether the post exists, and whether the caller likes it now. */
    public record Seen(boolean postExists, boolean liked) {
    }

    private LikeDecisions() {
    }

    /** A registered user likes an existing post; liking it again changes nothing. */
    public static Decision like(LikeCommand command, Seen seen, boolean registered) {
        if (!seen.postExists()) {
            return Decision.refuse(Refusal.notFound("post", command.postId()));
        }
        return Registration.required(registered, command.userId(), "liking posts", () -> seen.liked()
                ? Decision.unchanged()
                : Decision.accept(LikeEvent.LIKED, new PostLiked(command.postId(), command.userId(), command.now())));
    }

    /** A user unlikes a post they like; unliking one they do not like changes nothing. */
    public static Decision unlike(LikeCommand command, Seen seen) {
        if (!seen.postExists()) {
            return Decision.refuse(Refusal.notFound("post", command.postId()));
        }
        return seen.liked()
                ? Decision.accept(LikeEvent.UNLIKED, new PostUnliked(command.postId(), command.userId(), command.now()))
                : Decision.unchanged();
    }
}
