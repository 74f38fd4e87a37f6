package dev.cabinet.eventlog;

import java.util.Set;
import java.util.TreeSet;

import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;

/**
 * Checks for event data, used by the event records' constructors: an event from any producer must respect the same
 * bounds as a command, so that no event can make an item the store refuses. A violation makes the record unreadable
 * (dead-lettered by the projector, its key parked) instead of stopping projection.
 */
public final class EventFields {

    /**
     * The largest count an event carries, 2^53 - 1: beyond it a JSON number is not exact in JavaScript (and in any
     * reader that parses numbers as doubles), so the schemas bound counts there rather than at Java's long maximum.
     */
    public static final long MAX_COUNT = 9_007_199_254_740_991L;

    private EventFields() {
    }

    /** A count from 0 to {@link #MAX_COUNT}. */
    public static long count(String field, long value) {
        if (value < 0 || value > MAX_COUNT) {
            throw new IllegalArgumentException(field + " must be from 0 to " + MAX_COUNT);
        }
        return value;
    }

    public static String id(String field, String value) {
        return Ids.require(field, value);
    }

    /** A required timestamp in the fixed-width form keys use ({@link Timestamps}). */
    public static String timestamp(String field, String value) {
        if (!Timestamps.isValid(value)) {
            throw new IllegalArgumentException(field + " must be a UTC timestamp like 2026-01-31T12:00:00.000Z");
        }
        return value;
    }

    /** Required text of at most {@code max} characters. */
    public static String text(String field, String value, int max) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return optionalText(field, value, max);
    }

    /**
     * Optional text of at most {@code max} characters, counted as code points like JSON Schema's {@code maxLength}, so
     * the published contract and this check agree on text outside the Basic Multilingual Plane.
     */
    public static String optionalText(String field, String value, int max) {
        if (value != null && value.length() > max && value.codePointCount(0, value.length()) > max) {
            throw new IllegalArgumentException(field + " is longer than " + max + " characters");
        }
        return value;
    }

    /** A required value out of a closed set. */
    public static String oneOf(String field, String value, Set<String> allowed) {
        if (value == null || !allowed.contains(value)) {
            throw new IllegalArgumentException(field + " must be one of " + new TreeSet<>(allowed));
        }
        return value;
    }
}
