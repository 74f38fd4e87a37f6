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

    /** {@code userId} registers {@code profile} at {@code now}, or replaces the fields of their registered one. */
    public record PutProfile(String userId, ProfileRequest profile, String now) {
    }

    /** {@code userId} changes the fields of their profile that {@code change} gives. */
    public record ChangeProfile(String userId, ProfileChangeRequest change) {
    }

    /** The person {@code userId} is erased at {@code now}, asked by themself or an operator. */
    public record EraseUser(String userId, String now) {
    }

    private UserDecisions() {
    }

    /** {@code existing} is null for a user who has not registered yet: only then is {@code now} their registration. */
    public static Decision putProfile(PutProfile command, UserView existing) {
        String userId = command.userId();
        ProfileRequest profile = command.profile();
        if (existing != null && existing.erased()) {
            return Decision.refuse(Refusal.gone("user", userId));
        }
        if (existing != null) {
            // A registration again, not an update: it replaces every field, so an avatar left out is removed (an
            // update leaves out what it does not name). The projector keeps the first registration's time.
            return Decision.accept(UserEvent.REGISTERED, new UserRegistered(userId, profile.name(), profile.email(),
                    profile.avatarUrl(), existing.registeredAt()));
        }
        return Decision.accept(UserEvent.REGISTERED, new UserRegistered(userId, profile.name(), profile.email(),
                profile.avatarUrl(), command.now()));
    }

    /** Changing a profile that was never registered is a 404: there is nothing to change, and PUT registers. */
    public static Decision changeProfile(ChangeProfile command, UserView existing) {
        String userId = command.userId();
        ProfileChangeRequest change = command.change();
        if (existing == null) {
            return Decision.refuse(Refusal.notFound("user", userId));
        }
        if (existing.erased()) {
            return Decision.refuse(Refusal.gone("user", userId));
        }
        return Decision.accept(UserEvent.PROFILE_UPDATED, new UserProfileUpdated(userId, change.name(), change.email(),
                change.avatarUrl()));
    }

    /** Erasing a user who never registered is a 404; one already erased, a 410 (nothing is left to erase). */
    public static Decision erase(EraseUser command, UserView existing) {
        String userId = command.userId();
        if (existing == null) {
            return Decision.refuse(Refusal.notFound("user", userId));
        }
        if (existing.erased()) {
            return Decision.refuse(Refusal.gone("user", userId));
        }
        return Decision.accept(UserEvent.ERASED, new UserErased(userId, command.now()));
    }
}
