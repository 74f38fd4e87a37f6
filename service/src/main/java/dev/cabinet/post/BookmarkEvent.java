package dev.cabinet.post;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
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

    /** The user saves the post to their bookmarks (again, if they had removed it). */
    record PostBookmarked(String postId, String userId, String bookmarkedAt) implements BookmarkEvent {
        public PostBookmarked {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("bookmarkedAt", bookmarkedAt);
        }
    }

    /** The user removes the post from their bookmarks. */
    record BookmarkRemoved(String postId, String userId, String removedAt) implements BookmarkEvent {
        public BookmarkRemoved {
            EventFields.id("postId", postId);
            EventFields.id("userId", userId);
            EventFields.timestamp("removedAt", removedAt);
        }
    }
}
