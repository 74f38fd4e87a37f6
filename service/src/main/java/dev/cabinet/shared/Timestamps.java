package dev.cabinet.shared;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

/** ISO-8601 UTC timestamps with a fixed millisecond width, so that they sort as strings inside keys. */
public final class Timestamps {

    private static final Pattern FIXED_WIDTH = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }

    /** Whether the text is a timestamp in exactly this format, e.g. {@code 2026-01-31T12:00:00.000Z}. */
    public static boolean isValid(String text) {
        return text != null && FIXED_WIDTH.matcher(text).matches();
    }

    public static Instant parse(String text) {
        return Instant.from(FORMAT.parse(text));
    }
}
