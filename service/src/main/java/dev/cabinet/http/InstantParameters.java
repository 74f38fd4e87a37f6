package dev.cabinet.http;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.cabinet.shared.Timestamps;

/** Reads an ISO-8601 instant a client sent into the fixed-width form keys use, or answers a 400 naming the field. */
public final class InstantParameters {

    private InstantParameters() {
    }

    public static String fixedWidth(String field, String value) {
        if (value == null || value.isBlank()) {
            throw Problems.badRequest(field, "is required (an ISO-8601 UTC instant such as 2026-01-31T12:00:00Z)");
        }
        String formatted;
        try {
            formatted = Timestamps.format(Instant.parse(value));
        } catch (DateTimeParseException e) {
            throw Problems.badRequest(field, "must be an ISO-8601 UTC instant such as 2026-01-31T12:00:00Z");
        }
        if (!Timestamps.isValid(formatted)) {
            throw Problems.badRequest(field, "must be within the years 0000 to 9999");
        }
        return formatted;
    }
}
