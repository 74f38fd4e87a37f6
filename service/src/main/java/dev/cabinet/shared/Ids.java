package dev.cabinet.shared;

import java.util.regex.Pattern;

import com.github.f4b6a3.ulid.UlidCreator;

/** Identifier rules: every id that goes into a key matches {@code [A-Za-z0-9_-]{1,64}}, so no '#' can split a key. */
public final class Ids {

    public static final String PATTERN = "[A-Za-z0-9_-]{1,64}";
    private static final Pattern VALID = Pattern.compile(PATTERN);

    private Ids() {
    }

    public static boolean isValid(String id) {
        return id != null && VALID.matcher(id).matches();
    }

    /** Returns the id, or throws {@link InvalidIdException} naming the field it came from. */
    public static String require(String field, String id) {
        if (!isValid(id)) {
            throw new InvalidIdException(field, id);
        }
        return id;
    }

    /** A new server-side id: a monotonic ULID, so ids made in one JVM sort in the order they were made. */
    public static String newId() {
        return UlidCreator.getMonotonicUlid().toString();
    }
}
