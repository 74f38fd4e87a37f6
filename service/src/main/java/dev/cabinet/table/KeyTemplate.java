package dev.cabinet.table;

import dev.cabinet.shared.InvalidIdException;

import dev.cabinet.shared.Timestamps;

import dev.cabinet.shared.Ids;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key template such as {@code USER#{userId}} or {@code POST#{createdAt}#{postId}}. Rendering checks every value by the
 * kind its placeholder's name declares: {@code ...Id} is an id ({@link Ids}), {@code ...At}, {@code timestamp} and
 * {@code ...Date} are fixed-width timestamps or dates, {@code shard} is a shard number, {@code offset} a log offset
 * (zero-padded to 19 digits so that offsets sort as numbers). So no user text reaches a key.
 */
public final class KeyTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    private final String text;
    private final List<String> literals = new ArrayList<>();
    private final List<String> placeholders = new ArrayList<>();

    private KeyTemplate(String text) {
        this.text = text;
        Matcher matcher = PLACEHOLDER.matcher(text);
        int end = 0;
        while (matcher.find()) {
            literals.add(text.substring(end, matcher.start()));
            String name = matcher.group(1);
            kindOf(name);
            placeholders.add(name);
            end = matcher.end();
        }
        literals.add(text.substring(end));
    }

    public static KeyTemplate of(String text) {
        return new KeyTemplate(text);
    }

    public String text() {
        return text;
    }

    public List<String> placeholders() {
        return List.copyOf(placeholders);
    }

    /** The constant text before the first placeholder, e.g. {@code POST#}: what a {@code begins_with} condition uses. */
    public String prefix() {
        return literals.get(0);
    }

    /** Whether the text could have been rendered from this template (literals in place, each value non-empty). */
    public boolean matches(String rendered) {
        StringBuilder regex = new StringBuilder(Pattern.quote(literals.get(0)));
        for (int i = 1; i < literals.size(); i++) {
            regex.append("(.+)").append(Pattern.quote(literals.get(i)));
        }
        return rendered != null && rendered.matches(regex.toString());
    }

    public String render(Object... values) {
        if (values.length != placeholders.size()) {
            throw new IllegalArgumentException(text + " takes " + placeholders.size() + " values, got " + values.length);
        }
        StringBuilder key = new StringBuilder(literals.get(0));
        for (int i = 0; i < values.length; i++) {
            key.append(checked(placeholders.get(i), values[i])).append(literals.get(i + 1));
        }
        return key.toString();
    }

    /** Renders from named values (placeholder name to value); empty when any placeholder has no value. */
    public java.util.Optional<String> renderFrom(java.util.Map<String, ?> values) {
        Object[] ordered = new Object[placeholders.size()];
        for (int i = 0; i < ordered.length; i++) {
            ordered[i] = values.get(placeholders.get(i));
            if (ordered[i] == null) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.of(render(ordered));
    }

    /**
     * A regular expression that every key this template renders matches, and only such keys (each placeholder by its
     * kind): whether two templates can render the same key is decided by it, whatever their placeholders are named.
     */
    public Pattern pattern() {
        StringBuilder regex = new StringBuilder(Pattern.quote(literals.get(0)));
        for (int i = 0; i < placeholders.size(); i++) {
            regex.append(switch (kindOf(placeholders.get(i))) {
                case ID -> "(?:" + Ids.PATTERN + ")";
                case TIMESTAMP -> "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
                case DATE -> DATE.pattern();
                case OFFSET -> "\\d{19}";
                default -> "\\d{1,10}";
            }).append(Pattern.quote(literals.get(i + 1)));
        }
        return Pattern.compile(regex.toString());
    }

    /**
     * A bound of a range over this template's first placeholder: the literal prefix and the checked value, then, when the
     * template goes on after it, {@code ~} for an upper bound (it sorts after every character a key value can hold, so
     * every key with that value is in). E.g. {@code ORDER#2026-01-31~} for {@code ORDER#{orderDate}#{orderId}}.
     */
    public String bound(Object value, boolean upper) {
        if (placeholders.isEmpty()) {
            throw new IllegalArgumentException(text + " has no placeholder to bound");
        }
        String bound = literals.get(0) + checked(placeholders.get(0), value);
        return upper && (placeholders.size() > 1 || !literals.get(1).isEmpty()) ? bound + '~' : bound;
    }

    private static String checked(String name, Object value) {
        String text = value == null ? null : value.toString();
        switch (kindOf(name)) {
            case ID:
                if (!Ids.isValid(text)) {
                    throw new InvalidIdException(name, text);
                }
                break;
            case TIMESTAMP:
                if (!Timestamps.isValid(text)) {
                    throw new InvalidIdException(name, text, "be a UTC timestamp like 2026-01-31T12:00:00.000Z");
                }
                break;
            case DATE:
                if (text == null || !DATE.matcher(text).matches()) {
                    throw new InvalidIdException(name, text, "be a date like 2026-01-31");
                }
                break;
            case OFFSET:
                if (!(value instanceof Long || value instanceof Integer) || ((Number) value).longValue() < 0) {
                    throw new InvalidIdException(name, text, "be a log offset of 0 or more");
                }
                return String.format("%019d", ((Number) value).longValue());
            default:
                if (!(value instanceof Integer) || (Integer) value < 0) {
                    throw new InvalidIdException(name, text, "be a shard or partition number of 0 or more");
                }
        }
        return text;
    }

    private enum Kind {
        ID, TIMESTAMP, DATE, SHARD, OFFSET
    }

    private static Kind kindOf(String name) {
        if (name.endsWith("Id")) {
            return Kind.ID;
        }
        if (name.endsWith("At") || name.equals("timestamp")) {
            return Kind.TIMESTAMP;
        }
        if (name.endsWith("Date")) {
            return Kind.DATE;
        }
        if (name.equals("shard") || name.equals("partition")) {
            return Kind.SHARD;
        }
        if (name.equals("offset")) {
            return Kind.OFFSET;
        }
        throw new IllegalArgumentException("placeholder {" + name
                + "} has no known kind (…Id, …At, …Date, timestamp, shard, partition, offset)");
    }

    @Override
    public String toString() {
        return text;
    }
}
