package dev.cabinet.post;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
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

    /** A user wrote a new post, as a draft. */
    record PostCreated(String postId, String authorId, @PersonalData String title, @PersonalData String body,
            String createdAt) implements PostEvent {

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
    record PostEdited(String postId, @PersonalData(optional = true) String title,
            @PersonalData(optional = true) String body) implements PostEvent {
        public PostEdited {
            EventFields.id("postId", postId);
            EventFields.optionalText("title", title, TextRules.TITLE_MAX);
            EventFields.optionalText("body", body, TextRules.BODY_MAX);
        }
    }

    /** The author published the post: it enters the feed. */
    record PostPublished(String postId, String publishedAt) implements PostEvent {
        public PostPublished {
            EventFields.id("postId", postId);
            EventFields.timestamp("publishedAt", publishedAt);
        }
    }

    /** The author deleted the post: it leaves the feed, and its comments go with it. */
    record PostDeleted(String postId, String deletedAt) implements PostEvent {
        public PostDeleted {
            EventFields.id("postId", postId);
            EventFields.timestamp("deletedAt", deletedAt);
        }
    }
}
