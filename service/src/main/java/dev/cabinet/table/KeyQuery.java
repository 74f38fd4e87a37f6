package dev.cabinet.table;

import java.util.HashMap;
import java.util.Map;

import dev.cabinet.table.Index;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** A Query that names its partition key and constrains its sort key by key condition only: no filter exists here. */
public record KeyQuery(Index index, String partition, SortKeyCondition sortKey, boolean newestFirst) {

    public static KeyQuery of(Index index, String partition, SortKeyCondition sortKey, boolean newestFirst) {
        return new KeyQuery(index, partition, sortKey, newestFirst);
    }

    /** What a cursor of this list is bound to: the index, the partition, the sort-key condition and the order. */
    public String listId() {
        return String.join("|", index.name(), partition, sortKey.kind().name(), String.valueOf(sortKey.from()),
                String.valueOf(sortKey.to()), newestFirst ? "desc" : "asc");
    }

    /** The same list from just after the item with sort key {@code last}: see {@link SortKeyCondition#continuing}. */
    public KeyQuery continuing(String last) {
        return new KeyQuery(index, partition, sortKey.continuing(last, newestFirst), newestFirst);
    }

    /** The same list up to the item with sort key {@code last}, that one included: see {@link SortKeyCondition#upTo}. */
    public KeyQuery upTo(String last) {
        if (newestFirst) {
            throw new IllegalStateException("a list read newest first ends at its smallest key, not its largest");
        }
        return new KeyQuery(index, partition, sortKey.upTo(last), newestFirst);
    }

    /** The request without page size and start key; both readers and projector fan-outs start from it. */
    public QueryRequest.Builder toRequest(String table) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#pk", index.pkAttribute());
        values.put(":pk", AttributeValue.fromS(partition));
        String condition = "#pk = :pk";
        if (sortKey.kind() != SortKeyCondition.Kind.ANY) {
            names.put("#sk", index.skAttribute());
            values.put(":from", AttributeValue.fromS(sortKey.from()));
            switch (sortKey.kind()) {
                case BEGINS_WITH -> condition += " AND begins_with(#sk, :from)";
                case BEFORE -> condition += " AND #sk < :from";
                case AFTER -> condition += " AND #sk > :from";
                default -> {
                    values.put(":to", AttributeValue.fromS(sortKey.to()));
                    condition += " AND #sk BETWEEN :from AND :to";
                }
            }
        }
        QueryRequest.Builder request = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .scanIndexForward(!newestFirst);
        if (index.indexName() != null) {
            request.indexName(index.indexName());
        }
        return request;
    }
}
