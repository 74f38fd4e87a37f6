package dev.cabinet.post;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.erasure.PersonalData;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.TextRules;

/**
 * Facts about a post's comments. They belong to the post's stream (keyed by post id on {@value Topics#POSTS}), so a
 * comment and its post's deletion are ordered: a comment that comes after the deletion is rejected, never half-applied.
 */
public sealed interface CommentEvent extends DomainEvent permits CommentEvent.CommentAdded, CommentEvent.CommentDeleted {

    EventType<CommentAdded> ADDED = EventType.of("cabinet.comment.added.v1", CommentAdded.class, Topics.POSTS);
    EventType<CommentDeleted> DELETED = EventType.of("cabinet.comment.deleted.v1", CommentDeleted.class, Topics.POSTS);

    String postId();

    String commentId();

    @Override
    default String aggregateId() {
        return postId();
    }

    /** A user commented on a post. */
    record CommentAdded(String postId, String commentId, String authorId, @PersonalData String text, String createdAt)
            implements CommentEvent {

        @Override
        public String dataSubject() {
            return authorId;
        }

        public CommentAdded {
            EventFields.id("postId", postId);
            EventFields.id("commentId", commentId);
            EventFields.id("authorId", authorId);
            EventFields.text("text", text, TextRules.COMMENT_MAX);
            EventFields.timestamp("createdAt", createdAt);
        }
    }

    /** A comment was deleted; {@code createdAt} is the comment's own, which its key holds. */
    record CommentDeleted(String postId, String commentId, String createdAt) implements CommentEvent {
        public CommentDeleted {
            EventFields.id("postId", postId);
            EventFields.id("commentId", commentId);
            EventFields.timestamp("createdAt", createdAt);
        }
    }
}
