package dev.cabinet.role;

import java.util.Locale;

/**
 * What an instance does: serve the API, run the projector, or both (the default, for dev). One artifact and one image
 * serve all three; API instances are stateless, projector instances share the consumer group.
 */
public enum Role {
    API, PROJECTOR, BOTH;

    /** The setting that chooses the role. */
    public static final String PROPERTY = "cabinet.role";

    public static Role parse(String value) {
        if (value == null || value.isBlank()) {
            return BOTH;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + " must be api, projector or both, not '" + value + "'");
        }
    }

    public boolean servesApi() {
        return this != PROJECTOR;
    }

    public boolean projects() {
        return this != API;
    }
}
