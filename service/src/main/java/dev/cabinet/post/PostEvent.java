package dev.cabinet.post;

import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.OPTIONAL_TEXT;
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

/** Facts about a post, keyed by post id on {@value Topics#POSTS}. */
public sealed interface PostEvent extends DomainEvent
        permits PostEvent.PostCreated, PostEvent.PostEdited, PostEvent.PostPublished, PostEvent.PostDeleted {

    EventType<PostCreated> CREATED = EventType.of("cabinet.post.created.v1", PostCreated.class, Topics.POSTS);
    EventType<PostEdited> EDITED = EventType.of("cabinet.post.edited.v1", PostEdited.class, Topics.POSTS);
    EventType<PostPublished> PUBLISHED = EventType.of("cabinet.post.published.v1", PostPublished.class, Topics.POSTS);
    EventType<PostDeleted> DELETED = EventType.of("cabinet.post.deleted.v1", PostDeleted.class, Topics.POSTS);

    String postId();

    @Override
    default String aggregateId() {
        return postId();
    }

    @EventSchema(description = "A user wrote a new post, as a draft.", key = "postId")
    record PostCreated(@FieldSchema(ID) String postId, @FieldSchema(ID) String authorId,
            @FieldSchema(value = TEXT, max = TextRules.TITLE_MAX) @PersonalData String title,
            @FieldSchema(value = TEXT, max = TextRules.BODY_MAX) @PersonalData String body,
            @FieldSchema(TIMESTAMP) String createdAt) implements PostEvent {
        /** The example the published schema shows. */
        public static final PostCreated EXAMPLE = new PostCreated("01JPOST0000000000000000001", "ada", "Hello",
                "First post.", "2026-01-31T12:00:00.000Z");

        @Override
        public String dataSubject() {
            return authorId;
        }

        public PostCreated {
            EventFields.id("postId", postId);
            EventFields.id("authorId", authorId);
            EventFields.text("title", title, TextRules.TITLE_MAX);
            EventFields.text("body", body, TextRules.BODY_MAX);
            EventFields.timestamp("createdAt", createdAt);
        }
    }

    /** The author changed the post; a null field is left as it was. */
    @EventSchema(description = "The author changed the post; a null or absent field is left as it was.", key = "postId")
    record PostEdited(@FieldSchema(ID) String postId,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.TITLE_MAX) @PersonalData(optional = true) String title,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.BODY_MAX) @PersonalData(optional = true) String body)
            implements PostEvent {
        /** The example the published schema shows. */
        public static final PostEdited EXAMPLE = new PostEdited("01JPOST0000000000000000001", "Hello again", null);

        public PostEdited {
            EventFields.id("postId", postId);
            EventFields.optionalText("title", title, TextRules.TITLE_MAX);
            EventFields.optionalText("body", body, TextRules.BODY_MAX);
        }
    }

    @EventSchema(description = "The author published the post: it enters the feed.", key = "postId")
    record PostPublished(@FieldSchema(ID) String postId, @FieldSchema(TIMESTAMP) String publishedAt)
            implements PostEvent {
        /** The example the published schema shows. */
        public static final PostPublished EXAMPLE = new PostPublished("01JPOST0000000000000000001",
                "2026-01-31T12:00:00.000Z");

        public PostPublished {
            EventFields.id("postId", postId);
            EventFields.timestamp("publishedAt", publishedAt);
        }
    }

    @EventSchema(
            description = "The author deleted the post: it leaves the feed, and its comments go with it.",
            key = "postId")
    record PostDeleted(@FieldSchema(ID) String postId, @FieldSchema(TIMESTAMP) String deletedAt) implements PostEvent {
        /** The example the published schema shows. */
        public static final PostDeleted EXAMPLE = new PostDeleted("01JPOST0000000000000000001",
                "2026-01-31T12:00:00.000Z");

        public PostDeleted {
            EventFields.id("postId", postId);
            EventFields.timestamp("deletedAt", deletedAt);
        }
    }
}
