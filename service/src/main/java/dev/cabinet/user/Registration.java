package dev.cabinet.user;

import java.util.function.Supplier;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;

/**
 * The guard of every command that needs a registered caller (writing posts and comments, creating groups): one rule
 * and one wording. Registering is a conflict, not a 403: the same token is allowed once its profile exists.
 */
public final class Registration {

    private Registration() {
    }

    /** {@code then}'s decision if {@code userId} has a profile ({@link UserQueries#isRegistered}); a conflict if not. */
    public static Decision required(boolean registered, String userId, String doing, Supplier<Decision> then) {
        if (!registered) {
            return Decision.refuse(Refusal.conflict("register your profile with PUT /users/" + userId + " before "
                    + doing));
        }
        return then.get();
    }
}
