package dev.cabinet.query;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableConfig;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The query engine: every read is a GetItem or a Query with a key condition, nothing else (an architecture test keeps
 * Scan and filter expressions out of the code base). Non-blocking: each call returns a lazy {@link Uni}.
 */
@ApplicationScoped
public class TableReader {

    private final DynamoDbAsyncClient dynamo;
    private final String table;
    private final CursorCodec cursors;

    TableReader(DynamoDbAsyncClient dynamo, TableConfig config, CursorCodec cursors) {
        this.dynamo = dynamo;
        this.table = config.name();
        this.cursors = cursors;
    }

    public Uni<Optional<Map<String, AttributeValue>>> get(Key key) {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(table).key(key.toAttributes())))
                .map(Items::found);
    }

    public Uni<Page<Map<String, AttributeValue>>> query(KeyQuery query, PageRequest page) {
        QueryRequest request = request(query, page);
        return Uni.createFrom().completionStage(() -> dynamo.query(request))
                .map(response -> new Page<>(response.items(), nextCursor(response.lastEvaluatedKey())));
    }

    private QueryRequest request(KeyQuery query, PageRequest page) {
        Index index = query.index();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#pk", index.pkAttribute());
        values.put(":pk", AttributeValue.fromS(query.partition()));
        String condition = "#pk = :pk";
        SortKeyCondition sortKey = query.sortKey();
        if (sortKey.kind() != SortKeyCondition.Kind.ANY) {
            names.put("#sk", index.skAttribute());
            values.put(":from", AttributeValue.fromS(sortKey.from()));
            if (sortKey.kind() == SortKeyCondition.Kind.BEGINS_WITH) {
                condition += " AND begins_with(#sk, :from)";
            } else {
                values.put(":to", AttributeValue.fromS(sortKey.to()));
                condition += " AND #sk BETWEEN :from AND :to";
            }
        }
        QueryRequest.Builder request = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .scanIndexForward(!query.newestFirst())
                .limit(page.limit());
        if (index.indexName() != null) {
            request.indexName(index.indexName());
        }
        if (page.cursor() != null) {
            Map<String, String> start = cursors.decode(page.cursor(), index.pkAttribute(), query.partition(),
                    keyAttributes(index));
            request.exclusiveStartKey(start.entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> AttributeValue.fromS(e.getValue()))));
        }
        return request.build();
    }

    private String nextCursor(Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        return cursors.encode(lastEvaluatedKey.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().s())));
    }

    /** The attributes a LastEvaluatedKey of this index holds: its own keys plus the table's. */
    static Set<String> keyAttributes(Index index) {
        Set<String> keys = new LinkedHashSet<>(List.of(Key.PK, Key.SK));
        keys.add(index.pkAttribute());
        keys.add(index.skAttribute());
        return keys;
    }
}
