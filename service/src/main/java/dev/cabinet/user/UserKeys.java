package dev.cabinet.user;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of the user's items. */
public final class UserKeys {

    private UserKeys() {
    }

    public static Key profile(String userId) {
        return KeyPlan.USER_PROFILE.key(userId);
    }
}
