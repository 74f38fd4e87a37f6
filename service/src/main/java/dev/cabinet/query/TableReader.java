package dev.cabinet.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableConfig;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

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

    /**
     * One page of a list written across shards: every shard is queried in parallel from its own position, and the
     * results are merged by the index's sort key (newest first when the queries say so). The next cursor carries every
     * shard's position, so the following page continues each shard exactly where this one stopped: no item twice, none
     * skipped, and items added meanwhile before the positions (newer ones, in a newest-first feed) never shift it.
     */
    public Uni<Page<Map<String, AttributeValue>>> queryMerged(List<KeyQuery> shards, PageRequest page) {
        Index index = shards.get(0).index();
        List<ShardPosition> positions = page.cursor() == null
                ? Collections.nCopies(shards.size(), ShardPosition.START)
                : cursors.decodeShards(page.cursor(), index.pkAttribute(),
                        shards.stream().map(KeyQuery::partition).toList(), keyAttributes(index));
        List<Uni<QueryResponse>> reads = new ArrayList<>();
        for (int shard = 0; shard < shards.size(); shard++) {
            ShardPosition position = positions.get(shard);
            if (position.done()) {
                reads.add(Uni.createFrom().item(QueryResponse.builder().items(List.of()).build()));
                continue;
            }
            QueryRequest.Builder request = shards.get(shard).toRequest(table).limit(page.limit());
            if (position.after() != null) {
                request.exclusiveStartKey(Items.keyOf(position.after()));
            }
            QueryRequest built = request.build();
            reads.add(Uni.createFrom().completionStage(() -> dynamo.query(built)));
        }
        return Uni.join().all(reads).andFailFast()
                .map(responses -> merge(shards, positions, responses, page.limit()));
    }

    private Page<Map<String, AttributeValue>> merge(List<KeyQuery> shards, List<ShardPosition> positions,
            List<QueryResponse> responses, int limit) {
        Index index = shards.get(0).index();
        Comparator<Map<String, AttributeValue>> order = Comparator.comparing(item -> item.get(index.skAttribute()).s());
        if (shards.get(0).newestFirst()) {
            order = order.reversed();
        }
        int[] taken = new int[shards.size()];
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        while (page.size() < limit) {
            int best = -1;
            for (int shard = 0; shard < shards.size(); shard++) {
                List<Map<String, AttributeValue>> items = responses.get(shard).items();
                if (taken[shard] < items.size() && (best < 0
                        || order.compare(items.get(taken[shard]), responses.get(best).items().get(taken[best])) < 0)) {
                    best = shard;
                }
            }
            if (best < 0) {
                break;
            }
            page.add(responses.get(best).items().get(taken[best]++));
        }
        List<ShardPosition> next = new ArrayList<>();
        for (int shard = 0; shard < shards.size(); shard++) {
            QueryResponse response = responses.get(shard);
            boolean exhausted = taken[shard] == response.items().size()
                    && (response.lastEvaluatedKey() == null || response.lastEvaluatedKey().isEmpty());
            if (positions.get(shard).done() || exhausted) {
                next.add(ShardPosition.DONE);
            } else if (taken[shard] > 0) {
                next.add(ShardPosition.after(keyOf(response.items().get(taken[shard] - 1), index)));
            } else {
                next.add(positions.get(shard));
            }
        }
        boolean finished = next.stream().allMatch(ShardPosition::done);
        return new Page<>(page, finished ? null : cursors.encodeShards(next));
    }

    /** The start key DynamoDB expects to continue after {@code item} in {@code index}: the index's keys and the table's. */
    private static Map<String, String> keyOf(Map<String, AttributeValue> item, Index index) {
        Map<String, String> key = new TreeMap<>();
        for (String attribute : keyAttributes(index)) {
            key.put(attribute, item.get(attribute).s());
        }
        return key;
    }

    private QueryRequest request(KeyQuery query, PageRequest page) {
        QueryRequest.Builder request = query.toRequest(table).limit(page.limit());
        if (page.cursor() != null) {
            request.exclusiveStartKey(Items.keyOf(cursors.decode(page.cursor(), query.index().pkAttribute(),
                    query.partition(), keyAttributes(query.index()))));
        }
        return request.build();
    }

    private String nextCursor(Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        return cursors.encode(Items.keyStrings(lastEvaluatedKey));
    }

    /** The attributes a LastEvaluatedKey of this index holds: its own keys plus the table's. */
    static Set<String> keyAttributes(Index index) {
        Set<String> keys = new LinkedHashSet<>(List.of(Key.PK, Key.SK));
        keys.add(index.pkAttribute());
        keys.add(index.skAttribute());
        return keys;
    }
}
