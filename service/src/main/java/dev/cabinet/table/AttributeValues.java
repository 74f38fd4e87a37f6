package dev.cabinet.table;

import java.math.BigDecimal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Java values to DynamoDB attribute values: strings, numbers and booleans, which is all items hold. */
public final class AttributeValues {

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
