package dev.cabinet.query;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Reads typed attributes out of an item map, tolerating absent ones. */
public final class Items {

    private Items() {
    }

    public static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    public static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }

    public static boolean has(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name);
    }
}
