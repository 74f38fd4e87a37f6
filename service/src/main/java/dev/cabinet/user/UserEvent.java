package dev.cabinet.user;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
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

    /** A user registered their profile. */
    record UserRegistered(String userId, @PersonalData String name, @PersonalData String email,
            @PersonalData(optional = true) String avatarUrl, String registeredAt) implements UserEvent {
        public UserRegistered {
            EventFields.id("userId", userId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.text("email", email, TextRules.EMAIL_MAX);
            EventFields.optionalText("avatarUrl", avatarUrl, TextRules.URL_MAX);
            EventFields.timestamp("registeredAt", registeredAt);
        }
    }

    /** A user changed their profile; a null field is left as it was. */
    record UserProfileUpdated(String userId, @PersonalData(optional = true) String name,
            @PersonalData(optional = true) String email, @PersonalData(optional = true) String avatarUrl)
            implements UserEvent {
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
    record UserErased(String userId, String erasedAt) implements UserEvent {
        public UserErased {
            EventFields.id("userId", userId);
            EventFields.timestamp("erasedAt", erasedAt);
        }
    }
}
