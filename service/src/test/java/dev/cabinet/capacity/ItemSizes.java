package dev.cabinet.capacity;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's item size and capacity rules, as the model counts them: an item's size is the sum of its attribute names'
 * and values' sizes (strings in UTF-8 bytes; a number about one byte per two significant digits plus one; lists and
 * maps 3 bytes plus a byte per element); a write costs one unit per KB of the larger of the item before and after, a
 * strongly consistent read one unit per 4 KB, an eventually consistent one half that. The number and container sizes
 * follow dynalite's own computation, which the capacity check compares with (dynalite counts a string's UTF-16 length,
 * the same for the ASCII the model's events hold).
 */
final class ItemSizes {

    static final int WRITE_UNIT_BYTES = 1024;
    static final int READ_UNIT_BYTES = 4 * 1024;

    private ItemSizes() {
    }

    /** The item's size in bytes; 0 for no item. */
    static int of(Map<String, AttributeValue> item) {
        if (item == null) {
            return 0;
        }
        int size = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            size += utf8(attribute.getKey()) + value(attribute.getValue());
        }
        return size;
    }

    /** Write units of a write that finds {@code before} and leaves {@code after} (either may be absent): at least 1. */
    static int writeUnits(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        return Math.max(1, Math.max(units(of(before), WRITE_UNIT_BYTES), units(of(after), WRITE_UNIT_BYTES)));
    }

    /** Read units of reading {@code bytes} (one item, or a query's items together): at least one unit (half, eventual). */
    static double readUnits(int bytes, boolean consistent) {
        int units = Math.max(1, units(bytes, READ_UNIT_BYTES));
        return consistent ? units : units / 2.0;
    }

    static int units(int bytes, int unit) {
        return (bytes + unit - 1) / unit;
    }

    private static int value(AttributeValue value) {
        if (value.s() != null) {
            return utf8(value.s());
        }
        if (value.n() != null) {
            return number(value.n());
        }
        if (value.b() != null) {
            return value.b().asByteArray().length;
        }
        if (value.bool() != null || Boolean.TRUE.equals(value.nul())) {
            return 1;
        }
        if (value.hasSs()) {
            return value.ss().stream().mapToInt(ItemSizes::utf8).sum();
        }
        if (value.hasNs()) {
            return value.ns().stream().mapToInt(ItemSizes::number).sum();
        }
        if (value.hasL()) {
            return 3 + value.l().stream().mapToInt(element -> 1 + value(element)).sum();
        }
        if (value.hasM()) {
            return 3 + value.m().size() + of(value.m());
        }
        throw new IllegalArgumentException("an attribute value of no known type: " + value);
    }

    /** 1 byte plus one per two significant digits (and one more for an odd exponent or a negative number). */
    private static int number(String text) {
        BigDecimal number = new BigDecimal(text).stripTrailingZeros();
        if (number.signum() == 0) {
            return 1;
        }
        int significant = number.precision();
        // the exponent of the first digit (123 has 2, 0.5 has -1), as dynalite's number library keeps it
        int exponent = significant - number.scale() - 1;
        boolean aligned = significant % 2 != 0 || exponent % 2 != 0;
        return 1 + (significant + 1) / 2 + (aligned ? 0 : 1) + (number.signum() < 0 ? 1 : 0);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
