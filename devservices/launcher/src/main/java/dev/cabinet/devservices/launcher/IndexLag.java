package dev.cabinet.devservices.launcher;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long an index entry written to the local store stays invisible to index reads: one delay ({@code 1s}) or a range
 * drawn from uniformly per write ({@code 50ms..800ms}); {@code 0} for none, as dynalite itself does.
 */
public record IndexLag(Duration min, Duration max) {

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s)");

    public static final IndexLag NONE = new IndexLag(Duration.ZERO, Duration.ZERO);

    public IndexLag {
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("an index lag needs 0 <= min <= max, not " + min + ".." + max);
        }
    }

    /**
     * Reads {@code 0}, {@code 1s}, {@code 250ms}, {@code 50ms..800ms} or ISO-8601 durations ({@code PT1S}); anything
     * else is refused with the forms it takes.
     */
    public static IndexLag parse(String text) {
        String[] bounds = text.trim().split("\\.\\.", -1);
        if (bounds.length > 2) {
            throw refused(text);
        }
        Duration min = duration(bounds[0], text);
        return new IndexLag(min, bounds.length == 2 ? duration(bounds[1], text) : min);
    }

    public boolean isNone() {
        return max.isZero();
    }

    @Override
    public String toString() {
        return min.equals(max) ? min.toMillis() + "ms" : min.toMillis() + "ms.." + max.toMillis() + "ms";
    }

    private static Duration duration(String bound, String text) {
        String trimmed = bound.trim().toLowerCase(Locale.ROOT);
        if (trimmed.equals("0")) {
            return Duration.ZERO;
        }
        Matcher simple = DURATION.matcher(trimmed);
        if (simple.matches()) {
            long amount = Long.parseLong(simple.group(1));
            return simple.group(2).equals("ms") ? Duration.ofMillis(amount) : Duration.ofSeconds(amount);
        }
        try {
            return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw refused(text);
        }
    }

    private static IllegalArgumentException refused(String text) {
        return new IllegalArgumentException("'" + text + "' is not an index lag: write 0, a duration such as 1s or "
                + "250ms, or a range such as 50ms..800ms");
    }
}
