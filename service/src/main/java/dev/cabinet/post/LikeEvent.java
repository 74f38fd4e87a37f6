package dev.cabinet.post;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.Topics;

/**
 * A user's like of a post, on {@value Topics#POSTS} keyed by the user's id: one user's likes stay in order, while the
 * likes of one post by many users are different keys, applied concurrently (a viral post queues on no single key).
 */
public sealed interface LikeEvent extends DomainEvent permits LikeEvent.PostLiked, LikeEvent.PostUnliked {

    EventType<PostLiked> LIKED = EventType.of("cabinet.post.liked.v1", PostLiked.class, Topics.POSTS);
    EventType<PostUnliked> UNLIKED = EventType.of("cabinet.post.unliked.v1", PostUnliked.class, Topics.POSTS);

    String postId();

    String userId();

    @Override
    default String aggregateId() {
        return userId();
    }

    /** The user likes the post (again, if they had unliked it). */
    record PostLiked(String postId, String userId, String likedAt) implements LikeEvent {
        public PostLiked {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("likedAt", likedAt);
        }
    }

    /** The user no longer likes the post. */
    record PostUnliked(String postId, String userId, String unlikedAt) implements LikeEvent {
        public PostUnliked {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("unlikedAt", unlikedAt);
        }
    }
}
