package dev.cabinet.user;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.TextRules;

/** Facts about a user, keyed by user id on {@value Topics#USERS}. */
public sealed interface UserEvent extends DomainEvent permits UserEvent.UserRegistered, UserEvent.UserProfileUpdated {

    EventType<UserRegistered> REGISTERED = EventType.of("cabinet.user.registered.v1", UserRegistered.class, Topics.USERS);
    EventType<UserProfileUpdated> PROFILE_UPDATED = EventType.of("cabinet.user.profile-updated.v1",
            UserProfileUpdated.class, Topics.USERS);

    String userId();

    @Override
    default String aggregateId() {
        return userId();
    }

    /** A user registered their profile. */
    record UserRegistered(String userId, String name, String email, String avatarUrl, String registeredAt)
            implements UserEvent {
        public UserRegistered {
            EventFields.id("userId", userId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.text("email", email, TextRules.EMAIL_MAX);
            EventFields.optionalText("avatarUrl", avatarUrl, TextRules.URL_MAX);
            EventFields.timestamp("registeredAt", registeredAt);
        }
    }

    /** A user changed their profile; a null field is left as it was. */
    record UserProfileUpdated(String userId, String name, String email, String avatarUrl) implements UserEvent {
        public UserProfileUpdated {
            EventFields.id("userId", userId);
            EventFields.optionalText("name", name, TextRules.NAME_MAX);
            EventFields.optionalText("email", email, TextRules.EMAIL_MAX);
            EventFields.optionalText("avatarUrl", avatarUrl, TextRules.URL_MAX);
        }
    }
}
