package dev.cabinet.projection.contract;

import java.math.BigDecimal;
import java.math.BigInteger;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Refuses a number written with more than {@link #DIGITS} digits on either side of its point (such as
 * {@code 1e1000000000}) before a schema is checked: the schema validator's exact {@code multipleOf} arithmetic on it
 * takes hours or throws, which stopped the projection for good, and no field takes such a number (DynamoDB stores none
 * beyond 10^126; a double reads anything finer than 10^-324 as 0).
 */
final class NumberBounds {

    static final int DIGITS = 1000;

    private NumberBounds() {
    }

    /** The first number in {@code data} out of bounds, as text, or null. */
    static String outOfBounds(JsonNode data) {
        if (data == null) {
            return null;
        }
        if (data.isNumber()) {
            return within(data) ? null : data.asText();
        }
        for (JsonNode child : data) {
            String found = outOfBounds(child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean within(JsonNode number) {
        if (number.isBigInteger()) {
            BigInteger value = number.bigIntegerValue();
            return value.abs().bitLength() <= DIGITS * 4;
        }
        if (number.isBigDecimal()) {
            BigDecimal value = number.decimalValue();
            // Digits before the point: precision - scale; after it: scale.
            return value.precision() - value.scale() <= DIGITS && value.scale() <= DIGITS;
        }
        return true;   // ints, longs and doubles are bounded by their type
    }
}
