package dev.cabinet.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.cabinet.shared.Timestamps;

/** Reads an ISO-8601 instant a client sent into the fixed-width form keys use, or answers a 400 naming the field. */
public final class InstantParameters {

    private InstantParameters() {
    }

    /** The instant, to the millisecond below it: a point in time (a sample's, an order's) or a range's end. */
    public static String fixedWidth(String field, String value) {
        return fixedWidth(field, value, false);
    }

    /**
     * A range's start, to the millisecond at or above it, so that an inclusive range of millisecond keys starts at
     * nothing before what was asked.
     */
    public static String rangeStart(String field, String value) {
        return fixedWidth(field, value, true);
    }

    private static String fixedWidth(String field, String value, boolean roundUp) {
        if (value == null || value.isBlank()) {
            throw Problems.badRequest(field, "is required (an ISO-8601 UTC instant such as 2026-01-31T12:00:00Z)");
        }
        Instant instant;
        try {
            instant = Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw Problems.badRequest(field, "must be an ISO-8601 UTC instant such as 2026-01-31T12:00:00Z");
        }
        String formatted;
        try {
            formatted = roundUp ? Timestamps.formatRoundingUp(instant) : Timestamps.format(instant);
        } catch (DateTimeException | ArithmeticException e) {
            // An instant Java holds but no calendar date can show (beyond the year 999,999,999): no year of ours.
            formatted = null;
        }
        if (formatted == null || !Timestamps.isValid(formatted)) {
            throw Problems.badRequest(field, "must be within the years 0000 to 9999");
        }
        return formatted;
    }
}
