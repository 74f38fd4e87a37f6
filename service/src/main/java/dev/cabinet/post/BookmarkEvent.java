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
 * A user's bookmark of a post, on {@value Topics#POSTS} keyed by the user's id, as likes are: one user's bookmarks stay
 * in order, and the bookmarks of one post by many users are applied concurrently.
 */
public sealed interface BookmarkEvent extends DomainEvent
        permits BookmarkEvent.PostBookmarked, BookmarkEvent.BookmarkRemoved {

    EventType<PostBookmarked> BOOKMARKED = EventType.of("cabinet.post.bookmarked.v1", PostBookmarked.class,
            Topics.POSTS);
    EventType<BookmarkRemoved> REMOVED = EventType.of("cabinet.post.bookmark-removed.v1", BookmarkRemoved.class,
            Topics.POSTS);

    String postId();

    String userId();

    @Override
    default String aggregateId() {
        return userId();
    }

    @EventSchema(
            description = "The user saves the post to their bookmarks (again, if they had removed it).",
            key = "userId")
    record PostBookmarked(@FieldSchema(ID) String postId, @FieldSchema(ID) String userId,
            @FieldSchema(TIMESTAMP) String bookmarkedAt) implements BookmarkEvent {
        /** The example the published schema shows. */
        public static final PostBookmarked EXAMPLE = new PostBookmarked("01JPOST0000000000000000001",
                "01JUSER0000000000000000002", "2026-01-31T12:00:00.000Z");

        public PostBookmarked {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("bookmarkedAt", bookmarkedAt);
        }
    }

    @EventSchema(description = "The user removes the post from their bookmarks.", key = "userId")
    record BookmarkRemoved(@FieldSchema(ID) String postId, @FieldSchema(ID) String userId,
            @FieldSchema(TIMESTAMP) String removedAt) implements BookmarkEvent {
        /** The example the published schema shows. */
        public static final BookmarkRemoved EXAMPLE = new BookmarkRemoved("01JPOST0000000000000000001",
                "01JUSER0000000000000000002", "2026-01-31T12:00:00.000Z");

        public BookmarkRemoved {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("removedAt", removedAt);
        }
    }
}
