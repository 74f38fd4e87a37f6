package dev.cabinet.user;

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

/** Facts about a user, keyed by user id on {@value Topics#USERS}. */
public sealed interface UserEvent extends DomainEvent permits UserEvent.UserRegistered, UserEvent.UserProfileUpdated,
        UserEvent.UserErased {

    EventType<UserRegistered> REGISTERED = EventType.of("cabinet.user.registered.v1", UserRegistered.class, Topics.USERS);
    EventType<UserProfileUpdated> PROFILE_UPDATED = EventType.of("cabinet.user.profile-updated.v1",
            UserProfileUpdated.class, Topics.USERS);
    EventType<UserErased> ERASED = EventType.of("cabinet.user.erased.v1", UserErased.class, Topics.USERS);

    String userId();

    @Override
    default String aggregateId() {
        return userId();
    }

    @Override
    default String dataSubject() {
        return userId();
    }

    @EventSchema(description = "A user registered their profile.", key = "userId")
    record UserRegistered(@FieldSchema(ID) String userId,
            @FieldSchema(value = TEXT, max = TextRules.NAME_MAX) @PersonalData String name,
            @FieldSchema(value = TEXT, max = TextRules.EMAIL_MAX) @PersonalData String email,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.URL_MAX) @PersonalData(optional = true)
            String avatarUrl,
            @FieldSchema(TIMESTAMP) String registeredAt) implements UserEvent {
        /** The example the published schema shows. */
        public static final UserRegistered EXAMPLE = new UserRegistered("ada", "Ada Lovelace", "ada@example.org",
                "https://example.org/ada.png", "2026-01-31T12:00:00.000Z");

        public UserRegistered {
            EventFields.id("userId", userId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.text("email", email, TextRules.EMAIL_MAX);
            EventFields.optionalText("avatarUrl", avatarUrl, TextRules.URL_MAX);
            EventFields.timestamp("registeredAt", registeredAt);
        }
    }

    /** A user changed their profile; a null field is left as it was. */
    @EventSchema(
            description = "A user changed their profile; a null or absent field is left as it was.",
            key = "userId")
    record UserProfileUpdated(@FieldSchema(ID) String userId,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.NAME_MAX) @PersonalData(optional = true) String name,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.EMAIL_MAX) @PersonalData(optional = true)
            String email,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.URL_MAX) @PersonalData(optional = true)
            String avatarUrl) implements UserEvent {
        /** The example the published schema shows. */
        public static final UserProfileUpdated EXAMPLE = new UserProfileUpdated("ada", "Ada King", null, null);

        public UserProfileUpdated {
            EventFields.id("userId", userId);
            EventFields.optionalText("name", name, TextRules.NAME_MAX);
            EventFields.optionalText("email", email, TextRules.EMAIL_MAX);
            EventFields.optionalText("avatarUrl", avatarUrl, TextRules.URL_MAX);
        }
    }

    /**
     * The user was erased: their data key is destroyed, so their personal data in earlier events reads as erased, and
     * every copy of their profile becomes the placeholder.
     */
    @EventSchema(
            description = "The user was erased: their data key is destroyed, so the personal data sealed in their "
                    + "events reads as erased, and every copy of their profile becomes the placeholder.",
            key = "userId")
    record UserErased(@FieldSchema(ID) String userId, @FieldSchema(TIMESTAMP) String erasedAt) implements UserEvent {
        /** The example the published schema shows. */
        public static final UserErased EXAMPLE = new UserErased("ada", "2026-01-31T12:00:00.000Z");

        public UserErased {
            EventFields.id("userId", userId);
            EventFields.timestamp("erasedAt", erasedAt);
        }
    }
}
