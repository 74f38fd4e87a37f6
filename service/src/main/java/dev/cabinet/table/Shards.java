package dev.cabinet.table;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The one rule that puts a value in one of N shards: the feed entry of a post, an order's date shard, a metric sample,
 * a counter change. Deterministic for the value ({@link String#hashCode} is specified by the language), so a
 * redelivered event, a redo and a rebuild from the log pick the same shard as the first application did.
 */
public final class Shards {

    private Shards() {
    }

    /** The shard of {@code value} among {@code shards}, in 0..shards-1. */
    public static int of(String value, int shards) {
        return Math.floorMod(value.hashCode(), shards);
    }

    /** The keys of every shard of an owner's counter item ({@code counterType} keyed by the owner's id and a shard). */
    public static List<Key> keys(ItemType counterType, String ownerId, int shards) {
        return IntStream.range(0, shards).mapToObj(shard -> counterType.key(ownerId, shard)).toList();
    }

    /** A sharded counter's value among items read: the {@code attribute} of its shards summed, other items ignored. */
    public static long sum(List<Map<String, AttributeValue>> items, ItemType counterType, String attribute) {
        return items.stream().filter(item -> isShard(item, counterType))
                .mapToLong(item -> Items.number(item, attribute)).sum();
    }

    /** Whether the item read is a shard of this counter type (by its key's shape). */
    public static boolean isShard(Map<String, AttributeValue> item, ItemType counterType) {
        String pk = Items.string(item, Key.PK);
        String sk = Items.string(item, Key.SK);
        return pk != null && sk != null && counterType.matches(new Key(pk, sk));
    }
}
