package dev.cabinet.post;

import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
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

    @EventSchema(description = "The user likes the post (again, if they had unliked it).", key = "userId")
    record PostLiked(@FieldSchema(ID) String postId, @FieldSchema(ID) String userId,
            @FieldSchema(TIMESTAMP) String likedAt) implements LikeEvent {
        /** The example the published schema shows. */
        public static final PostLiked EXAMPLE = new PostLiked("01JPOST0000000000000000001",
                "01JUSER0000000000000000002", "2026-01-31T12:00:00.000Z");

        public PostLiked {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("likedAt", likedAt);
        }
    }

    @EventSchema(description = "The user no longer likes the post.", key = "userId")
    record PostUnliked(@FieldSchema(ID) String postId, @FieldSchema(ID) String userId,
            @FieldSchema(TIMESTAMP) String unlikedAt) implements LikeEvent {
        /** The example the published schema shows. */
        public static final PostUnliked EXAMPLE = new PostUnliked("01JPOST0000000000000000001",
                "01JUSER0000000000000000002", "2026-01-31T12:05:00.000Z");

        public PostUnliked {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("unlikedAt", unlikedAt);
        }
    }
}
