package dev.cabinet.table;

import java.util.Comparator;
import java.util.Optional;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Which access pattern of the key plan a read serves, told from the request alone: a GetItem by the item type its key
 * has, a Query by the index and the item types whose partition key its key condition names. Where several patterns
 * read the same way (a post alone, or with its comments), the first one is named. For counting a read's capacity
 * against its pattern ({@link StoreCapacityMeter}).
 */
final class AccessPatterns {

    private AccessPatterns() {
    }

    /** The number of the pattern the request reads for, if it is a read that one serves. */
    static Optional<Integer> matching(SdkRequest request) {
        if (request instanceof GetItemRequest get && get.hasKey()) {
            return KeyPlan.typeOf(Key.of(get.key())).flatMap(AccessPatterns::readOf);
        }
        if (request instanceof QueryRequest query && query.hasExpressionAttributeValues()) {
            AttributeValue partition = query.expressionAttributeValues().get(":pk");
            if (partition == null || partition.s() == null) {
                return Optional.empty();
            }
            Index index = query.indexName() == null ? Index.TABLE
                    : java.util.Arrays.stream(Index.values()).filter(i -> query.indexName().equals(i.indexName()))
                            .findFirst().orElse(Index.TABLE);
            return queryOf(index, partition.s());
        }
        return Optional.empty();
    }

    private static Optional<Integer> readOf(ItemType type) {
        return KeyPlan.ACCESS_PATTERNS.stream()
                .filter(pattern -> pattern.reads().stream().anyMatch(read -> read instanceof ItemRead item
                        && item.itemType() == type))
                .map(AccessPattern::number).min(Comparator.naturalOrder());
    }

    private static Optional<Integer> queryOf(Index index, String partition) {
        return KeyPlan.ACCESS_PATTERNS.stream()
                .filter(pattern -> pattern.reads().stream().anyMatch(read -> read instanceof QueryDefinition query
                        && query.index() == index && query.itemTypes().stream()
                                .anyMatch(type -> partitionOf(type, index).map(t -> t.matches(partition))
                                        .orElse(false))))
                .map(AccessPattern::number).min(Comparator.naturalOrder());
    }

    private static Optional<KeyTemplate> partitionOf(ItemType type, Index index) {
        return index == Index.TABLE ? Optional.of(type.pk()) : type.entryIn(index).map(IndexEntry::pk);
    }
}
