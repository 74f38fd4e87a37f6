package dev.cabinet.table;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/** Reads typed attributes out of an item map, tolerating absent ones. */
public final class Items {

    private Items() {
    }

    /** The item a GetItem found, or empty: DynamoDB answers a missing item with no (or an empty) item map. */
    public static Optional<Map<String, AttributeValue>> found(GetItemResponse response) {
        return response.hasItem() && !response.item().isEmpty() ? Optional.of(response.item()) : Optional.empty();
    }

    public static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    public static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }

    /** A key map of string attributes, as cursors carry it, turned back into attribute values. */
    public static Map<String, AttributeValue> keyOf(Map<String, String> key) {
        Map<String, AttributeValue> attributes = new HashMap<>();
        key.forEach((name, value) -> attributes.put(name, AttributeValue.fromS(value)));
        return attributes;
    }

    /** The string attributes of a key (all of Cabinet's keys are strings). */
    public static Map<String, String> keyStrings(Map<String, AttributeValue> key) {
        Map<String, String> strings = new TreeMap<>();
        key.forEach((name, value) -> strings.put(name, value.s()));
        return strings;
    }

    public static boolean has(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name);
    }

    /** Whether the item's boolean attribute is there and true (a like's {@code liked}). */
    public static boolean isTrue(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value != null && Boolean.TRUE.equals(value.bool());
    }
}
