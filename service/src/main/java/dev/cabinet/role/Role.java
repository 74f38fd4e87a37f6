package dev.cabinet.role;

import java.util.Locale;

/**
 * What an instance does: serve the public API, run the projector, serve the operators' endpoints under {@code /admin},
 * or all three (the default, for dev). One artifact and one image serve every role; API and operator instances are
 * stateless, projector instances share the consumer group. The operators' endpoints have a role of their own so that
 * the public API's pods carry no grant to scan or batch-write the table (deploy/iam).
 */
public enum Role {
    API, PROJECTOR, OPERATOR, BOTH;

    /** The setting that chooses the role. */
    public static final String PROPERTY = "cabinet.role";

    public static Role parse(String value) {
        if (value == null || value.isBlank()) {
            return BOTH;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + " must be api, projector, operator or both, not '" + value
                    + "'");
        }
    }

    /** Whether the instance serves the public API (every path but {@code /admin} and {@code /q}). */
    public boolean servesApi() {
        return this == API || this == BOTH;
    }

    /** Whether the instance serves the operators' endpoints under {@code /admin}. */
    public boolean servesAdmin() {
        return this == OPERATOR || this == BOTH;
    }

    public boolean projects() {
        return this == PROJECTOR || this == BOTH;
    }

    /** The role as it is written in the setting and in metrics' tags: {@code api}, {@code projector}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
