package dev.cabinet.table;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The primary key of one item: partition key and sort key. */
public record Key(String pk, String sk) {

    public static final String PK = "pk";
    public static final String SK = "sk";

    /** The key of an item as the store returned it. */
    public static Key of(Map<String, AttributeValue> item) {
        return new Key(item.get(PK).s(), item.get(SK).s());
    }

    public Map<String, AttributeValue> toAttributes() {
        return Map.of(PK, AttributeValue.fromS(pk), SK, AttributeValue.fromS(sk));
    }

    @Override
    public String toString() {
        return pk + " / " + sk;
    }
}
