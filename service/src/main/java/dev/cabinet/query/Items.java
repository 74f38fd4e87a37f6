package dev.cabinet.query;

import java.util.Map;
import java.util.Optional;

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

    public static boolean has(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name);
    }
}
