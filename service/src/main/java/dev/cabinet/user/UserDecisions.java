package dev.cabinet.user;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.user.UserEvent.UserErased;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;

/**
 * The rules of profile commands: PUT registers a profile or replaces an existing one's fields, PATCH changes a
 * registered one. That a user acts only on their own profile is the caller check's, before anything is read.
 */
public final class UserDecisions {

    private UserDecisions() {
    }

    /** {@code existing} is null for a user who has not registered yet: only then is {@code now} their registration. */
    public static Decision putProfile(String userId, ProfileRequest body, String now, UserView existing) {
        if (existing != null && existing.erased()) {
            return Decision.refuse(Refusal.gone("user", userId));
        }
        if (existing != null) {
            return Decision.accept(UserEvent.PROFILE_UPDATED, new UserProfileUpdated(userId, body.name(), body.email(),
                    body.avatarUrl()));
        }
        return Decision.accept(UserEvent.REGISTERED, new UserRegistered(userId, body.name(), body.email(),
                body.avatarUrl(), now));
    }

    /** Changing a profile that was never registered is a 404: there is nothing to change, and PUT registers. */
    public static Decision changeProfile(String userId, ProfileChangeRequest body, UserView existing) {
        if (existing == null) {
            return Decision.refuse(Refusal.notFound("user", userId));
        }
        if (existing.erased()) {
            return Decision.refuse(Refusal.gone("user", userId));
        }
        return Decision.accept(UserEvent.PROFILE_UPDATED, new UserProfileUpdated(userId, body.name(), body.email(),
                body.avatarUrl()));
    }

    /** Erasing a user who never registered is a 404; one already erased, a 410 (nothing is left to erase). */
    public static Decision erase(String userId, String now, UserView existing) {
        if (existing == null) {
            return Decision.refuse(Refusal.notFound("user", userId));
        }
        if (existing.erased()) {
            return Decision.refuse(Refusal.gone("user", userId));
        }
        return Decision.accept(UserEvent.ERASED, new UserErased(userId, now));
    }
}
