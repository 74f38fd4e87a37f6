package dev.cabinet.table;

import java.math.BigDecimal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Java values to DynamoDB attribute values: strings, numbers and booleans, which is all items hold. */
public final class AttributeValues {

    /**
     * The smallest magnitude DynamoDB stores besides zero: a number below it is refused ("Number underflow"), which
     * would dead-letter an event the API and the published schema accept (a cpu of 1e-200 percent).
     */
    static final double SMALLEST_NUMBER = 1e-130;

    private AttributeValues() {
    }

    public static AttributeValue of(Object value) {
        if (value instanceof AttributeValue) {
            return (AttributeValue) value;
        }
        if (value instanceof String) {
            return AttributeValue.fromS((String) value);
        }
        if (value instanceof BigDecimal decimal) {
            return AttributeValue.fromN(decimal.toPlainString());
        }
        if ((value instanceof Double || value instanceof Float)
                && Math.abs(((Number) value).doubleValue()) < SMALLEST_NUMBER) {
            // Zero, or too small for the store to tell from it: written as zero, alike on every replay.
            return AttributeValue.fromN("0");
        }
        if (value instanceof Number) {
            return AttributeValue.fromN(value.toString());
        }
        if (value instanceof Boolean) {
            return AttributeValue.fromBool((Boolean) value);
        }
        throw new IllegalArgumentException("no attribute value for " + (value == null ? "null" : value.getClass()));
    }

    /** The value as readable text: strings quoted, numbers and booleans bare, sets and others as the SDK prints them. */
    public static String text(AttributeValue value) {
        if (value.s() != null) {
            return '"' + value.s() + '"';
        }
        if (value.n() != null) {
            return value.n();
        }
        if (value.bool() != null) {
            return value.bool().toString();
        }
        if (value.hasSs()) {
            return value.ss().toString();
        }
        return value.toString();
    }
}
