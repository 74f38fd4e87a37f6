package dev.cabinet.shared;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

/** ISO-8601 UTC timestamps with a fixed millisecond width, so that they sort as strings inside keys. */
public final class Timestamps {

    private static final Pattern FIXED_WIDTH = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    /** The proleptic year ({@code uuuu}): year 0 prints as 0000 and a year before it with its sign, never shifted. */
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    /** The same form, refusing what no calendar has (February 30th, hour 24) where the default would shift it. */
    private static final DateTimeFormatter STRICT = FORMAT.withResolverStyle(ResolverStyle.STRICT);

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }

    /** The first millisecond at or after the instant, formatted: where a range that starts at it begins. */
    public static String formatRoundingUp(Instant instant) {
        Instant millis = instant.truncatedTo(ChronoUnit.MILLIS);
        return FORMAT.format(millis.equals(instant) ? millis : millis.plusMillis(1));
    }

    /**
     * Whether the text is a timestamp in exactly this format, e.g. {@code 2026-01-31T12:00:00.000Z}, of a day and time
     * that exist: a key of February 30th would file an item under a date no query can name.
     */
    public static boolean isValid(String text) {
        if (text == null || !FIXED_WIDTH.matcher(text).matches()) {
            return false;
        }
        try {
            STRICT.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    public static Instant parse(String text) {
        return Instant.from(FORMAT.parse(text));
    }
}
