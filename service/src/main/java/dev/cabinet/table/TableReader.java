package dev.cabinet.table;

import dev.cabinet.table.query.ShardPosition;

import dev.cabinet.table.query.ReadConsistency;

import dev.cabinet.table.query.PageRequest;

import dev.cabinet.table.query.Page;

import dev.cabinet.table.query.CursorCodec;

import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import io.quarkus.arc.Arc;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The query engine: every read is a GetItem or a Query with a key condition, nothing else (an architecture test keeps
 * Scan and filter expressions out of the code base). Non-blocking: each call returns a lazy {@link Uni}.
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class TableReader {

    private final DynamoDbAsyncClient dynamo;
    private final ActiveTable table;
    private final CursorCodec cursors;
    private final ReadConsistency consistency;

    TableReader(DynamoDbAsyncClient dynamo, ActiveTable table, CursorCodec cursors, ReadConsistency consistency) {
        this.dynamo = dynamo;
        this.table = table;
        this.cursors = cursors;
        this.consistency = consistency;
    }

    public Uni<Optional<Map<String, AttributeValue>>> get(Key key) {
        return get(key, strong(Index.TABLE));
    }

    /** A strongly consistent read, whatever the request asked for: for what a read must see before it answers. */
    public Uni<Optional<Map<String, AttributeValue>>> getConsistently(Key key) {
        return get(key, true);
    }

    private Uni<Optional<Map<String, AttributeValue>>> get(Key key, boolean strong) {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(table.name()).key(key.toAttributes())
                .consistentRead(strong)))
                .map(Items::found);
    }

    /**
     * Reads the items at these keys, 100 per BatchGetItem (its limit), all batches at once: one round however many.
     * Keys DynamoDB leaves unprocessed (under throttling) are asked for again. Items that do not exist are not returned.
     */
    public Uni<List<Map<String, AttributeValue>>> getAll(List<Key> keys) {
        return BatchGets.all(table.name(), keys, strong(Index.TABLE), UnprocessedRetries.FOR_REQUESTS,
                request -> Uni.createFrom().completionStage(() -> dynamo.batchGetItem(request)));
    }

    /** The {@code next} cursor of {@code list} that continues just after {@code item}. */
    public String cursorAfter(KeyQuery list, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new java.util.HashMap<>();
        keyAttributes(list.index()).forEach(name -> {
            if (item.containsKey(name)) {
                key.put(name, item.get(name));
            }
        });
        return nextCursor(list, key);
    }

    /** Strongly consistent when the request asked for it (and the index allows it), outside requests never. */
    private boolean strong(Index index) {
        return index == Index.TABLE && Arc.container().requestContext().isActive() && consistency.strong();
    }

    public Uni<Page<Map<String, AttributeValue>>> query(KeyQuery query, PageRequest page) {
        return query(query, page, query);
    }

    /**
     * One page of {@code query}, whose {@code next} cursor is for {@code continuation}: a one-Query read of an item
     * with its children (a post and its comments) continues on the list of the children alone.
     */
    public Uni<Page<Map<String, AttributeValue>>> query(KeyQuery query, PageRequest page, KeyQuery continuation) {
        QueryRequest request = request(query, page);
        return Uni.createFrom().completionStage(() -> dynamo.query(request))
                .map(response -> new Page<>(response.items(), nextCursor(continuation, response.lastEvaluatedKey())));
    }

    /**
     * One page of a list written across shards: every shard is queried in parallel from the cursor's position, and the
     * results are merged by the index's sort key (newest first when the queries say so). Sort keys are unique across
     * the shards, so the next cursor can place every unfinished shard just after the last item of this page: the
     * following page continues exactly, with no item twice and none skipped, and items added meanwhile before that
     * point (newer ones, in a newest-first feed) never shift it. In a newest-first list a shard that has given its last
     * item is not read again: what it gets later is newer than the cursor. In an oldest-first list it is, while another
     * shard has more: an item it gets later comes after the cursor, where the following pages must list it.
     */
    public Uni<Page<Map<String, AttributeValue>>> queryMerged(List<KeyQuery> shards, PageRequest page) {
        String list = shards.get(0).listId();
        List<ShardPosition> positions = page.cursor() == null
                ? Collections.nCopies(shards.size(), ShardPosition.START)
                : cursors.decodeShards(page.cursor(), list, shards.size());
        List<Uni<ShardRead>> reads = new ArrayList<>();
        for (int shard = 0; shard < shards.size(); shard++) {
            reads.add(read(shards.get(shard), positions.get(shard), page.limit()));
        }
        return Uni.join().all(reads).andFailFast().map(results -> merge(shards.get(0), list, results, page.limit()));
    }

    /** The items one shard offers for a page, and whether it has more beyond them. */
    private record ShardRead(List<Map<String, AttributeValue>> items, boolean more, boolean done) {
    }

    private Uni<ShardRead> read(KeyQuery shard, ShardPosition position, int limit) {
        if (position.done()) {
            return Uni.createFrom().item(new ShardRead(List.of(), false, true));
        }
        KeyQuery query = position.last() == null ? shard : shard.continuing(position.last());
        if (position.last() != null && query.sortKey().matchesNothing()) {
            return Uni.createFrom().item(new ShardRead(List.of(), false, true));   // read to the range's very end
        }
        boolean dropBound = position.last() != null && shard.sortKey().includesBound(shard.newestFirst());
        QueryRequest request = query.toRequest(table.name()).limit(limit + (dropBound ? 1 : 0))
                .consistentRead(strong(shard.index())).build();
        String skAttribute = shard.index().skAttribute();
        return Uni.createFrom().completionStage(() -> dynamo.query(request)).map(response -> new ShardRead(
                response.items().stream()
                        .filter(item -> !(dropBound && position.last().equals(item.get(skAttribute).s())))
                        .toList(),
                response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty(), false));
    }

    private Page<Map<String, AttributeValue>> merge(KeyQuery first, String list, List<ShardRead> reads, int limit) {
        String skAttribute = first.index().skAttribute();
        Comparator<Map<String, AttributeValue>> order = Comparator.comparing(item -> item.get(skAttribute).s());
        if (first.newestFirst()) {
            order = order.reversed();
        }
        int[] taken = new int[reads.size()];
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        while (page.size() < limit) {
            int best = -1;
            for (int shard = 0; shard < reads.size(); shard++) {
                List<Map<String, AttributeValue>> items = reads.get(shard).items();
                if (taken[shard] < items.size() && (best < 0
                        || order.compare(items.get(taken[shard]), reads.get(best).items().get(taken[best])) < 0)) {
                    best = shard;
                }
            }
            if (best < 0) {
                break;
            }
            page.add(reads.get(best).items().get(taken[best]++));
        }
        String last = page.isEmpty() ? null : page.get(page.size() - 1).get(skAttribute).s();
        List<ShardPosition> next = new ArrayList<>();
        boolean anyMore = false;
        for (int shard = 0; shard < reads.size(); shard++) {
            ShardRead read = reads.get(shard);
            boolean exhausted = taken[shard] == read.items().size() && !read.more();
            anyMore |= !read.done() && !exhausted;
            next.add(read.done() || exhausted && first.newestFirst() || last == null ? ShardPosition.DONE
                    : ShardPosition.after(last));
        }
        // Every shard gave its last item: the list ends here, whichever its order.
        boolean finished = last == null || !anyMore;
        return new Page<>(page, finished ? null : cursors.encodeShards(list, next));
    }

    private QueryRequest request(KeyQuery query, PageRequest page) {
        QueryRequest.Builder request = query.toRequest(table.name()).limit(page.limit()).consistentRead(strong(query.index()));
        if (page.cursor() != null) {
            request.exclusiveStartKey(Items.keyOf(cursors.decode(page.cursor(), query.listId(),
                    query.index().pkAttribute(), query.partition(), keyAttributes(query.index()))));
        }
        return request.build();
    }

    private String nextCursor(KeyQuery list, Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        return cursors.encode(list.listId(), Items.keyStrings(lastEvaluatedKey));
    }

    /** The attributes a LastEvaluatedKey of this index holds: its own keys plus the table's. */
    static Set<String> keyAttributes(Index index) {
        Set<String> keys = new LinkedHashSet<>(List.of(Key.PK, Key.SK));
        keys.add(index.pkAttribute());
        keys.add(index.skAttribute());
        return keys;
    }
}
