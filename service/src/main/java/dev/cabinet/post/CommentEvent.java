package dev.cabinet.post;

import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
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
    @EventSchema(
            description = "A user commented on a post (the post's stream keeps comments in order with the post).",
            key = "postId")
    record CommentAdded(@FieldSchema(ID) String postId, @FieldSchema(ID) String commentId,
            @FieldSchema(ID) String authorId,
            @FieldSchema(value = TEXT, max = TextRules.COMMENT_MAX) @PersonalData String text,
            @FieldSchema(TIMESTAMP) String createdAt) implements CommentEvent {
        /** The example the published schema shows. */
        public static final CommentAdded EXAMPLE = new CommentAdded("01JPOST0000000000000000001",
                "01JCOMMENT0000000000000001", "grace", "Nice.", "2026-01-31T12:00:00.000Z");

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
    @EventSchema(
            description = "A comment was deleted; createdAt is the comment's own, which its key holds.",
            key = "postId")
    record CommentDeleted(@FieldSchema(ID) String postId, @FieldSchema(ID) String commentId,
            @FieldSchema(TIMESTAMP) String createdAt) implements CommentEvent {
        /** The example the published schema shows. */
        public static final CommentDeleted EXAMPLE = new CommentDeleted("01JPOST0000000000000000001",
                "01JCOMMENT0000000000000001", "2026-01-31T12:00:00.000Z");

        public CommentDeleted {
            EventFields.id("postId", postId);
            EventFields.id("commentId", commentId);
            EventFields.timestamp("createdAt", createdAt);
        }
    }
}
