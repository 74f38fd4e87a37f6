package dev.cabinet.capacity;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.ModelTables;
import dev.cabinet.table.TableWriter;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The model's store: one table in memory behind the real DynamoDB async client interface, so that the real executor,
 * table writer and derivations make exactly the calls they make against DynamoDB. Every call is answered only when
 * the model moves on by one <em>round</em> ({@link #round}): the calls a round answers were all in flight together,
 * and a call made in reaction to an answer belongs to the next round, so the rounds an event takes are the sequential
 * store round trips it waits for. Each call is priced by DynamoDB's rules ({@link ItemSizes}): the table's write and
 * read units, and one index write per GSI entry a write adds or removes, two where it moves one (its size in KB,
 * rounded up, over the index's key and projected attributes).
 */
final class ModelStore implements DynamoDbAsyncClient {

    /**
     * One call as the model priced it. {@code reportedReadUnits} is what dynalite answers for it: the same, except a
     * query that finds nothing, which DynamoDB bills at least half a unit for and dynalite at none.
     */
    record Call(String operation, String key, int round, int writeUnits, int indexWriteUnits, double readUnits,
            int bytesWritten, boolean conditionFailed, double reportedReadUnits) {

        Call(String operation, String key, int round, int writeUnits, int indexWriteUnits, double readUnits,
                int bytesWritten, boolean conditionFailed) {
            this(operation, key, round, writeUnits, indexWriteUnits, readUnits, bytesWritten, conditionFailed,
                    readUnits);
        }
    }

    private final Map<Key, Map<String, AttributeValue>> items = new HashMap<>();
    private final Deque<Pending> inFlight = new ArrayDeque<>();
    private final List<Call> calls = new ArrayList<>();
    private final Map<Key, GetItemAnswer> getItemAnswers = new HashMap<>();
    private final Set<Key> failingDeletes = new HashSet<>();
    private final Set<Key> failingNextUpdate = new HashSet<>();
    /** Which of the crash round's writes land, while a crash is armed; null when none is. */
    private IntPredicate landing;
    /** Rounds to go until the armed crash's round (1: the next). */
    private int roundsToCrash;
    private boolean crashed;
    private int crashRoundWrites;
    private int round;

    ModelStore() {
    }

    /** A store that holds these items, as another store held them at some moment. */
    ModelStore(Map<Key, Map<String, AttributeValue>> items) {
        this.items.putAll(items);
    }

    @Override
    public String serviceName() {
        return "dynamodb";
    }

    @Override
    public void close() {
    }

    /** Answers every call in flight; returns whether there were any. Calls made meanwhile wait for the next round. */
    boolean round() {
        List<Pending> answering = new ArrayList<>(inFlight);
        inFlight.clear();
        if (answering.isEmpty()) {
            return false;
        }
        round++;
        if (landing != null && --roundsToCrash == 0) {
            // the process dies in this round: of its writes those that land are made, its reads answer nothing
            for (Pending call : answering) {
                if (call.write() && landing.test(crashRoundWrites++)) {
                    call.answer().run();
                }
            }
            inFlight.clear();
            crashed = true;
            landing = null;
            return false;
        }
        answering.forEach(call -> call.answer().run());
        return true;
    }

    /** Answers the calls round by round until the work is done; it must wait for nothing but this store. */
    void drive(java.util.concurrent.CompletionStage<?> work) {
        CompletableFuture<?> done = work.toCompletableFuture();
        while (!done.isDone()) {
            if (!round()) {
                throw new IllegalStateException("the work waits for something other than the store");
            }
        }
        done.join();
    }

    /** A call in flight: its answer, and whether it writes. */
    private record Pending(Runnable answer, boolean write) {
    }

    /** The calls made since {@link #clearCalls}. */
    List<Call> calls() {
        return List.copyOf(calls);
    }

    void clearCalls() {
        calls.clear();
        round = 0;
    }

    /** Every item, by key. */
    Map<Key, Map<String, AttributeValue>> items() {
        return Map.copyOf(items);
    }

    /** The item at the key, or null. */
    Map<String, AttributeValue> item(Key key) {
        return items.get(key);
    }

    // --- the calls -------------------------------------------------------------------------------------------------

    /** How GetItem calls of a key are answered, for a test that needs one to fail or to hang. */
    enum GetItemAnswer {
        /** The item, in the next round. */
        ITEM,
        /** Never: as a call in flight when its process crashed. */
        NONE,
        /** An error the store would not answer again differently (a 400), in the next round. */
        REFUSAL
    }

    /** DeleteItem calls of the key made from now on fail as the store's 500 (a transient error) would. */
    void failDeletes(Key key) {
        failingDeletes.add(key);
    }

    void stopFailingDeletes() {
        failingDeletes.clear();
    }

    /** The next UpdateItem call of the key fails as the store's 500 (a transient error) would; later ones do not. */
    void failNextUpdate(Key key) {
        failingNextUpdate.add(key);
    }

    /** GetItem calls of the key made from now on are answered so. */
    void answerGetItems(Key key, GetItemAnswer answer) {
        getItemAnswers.put(key, answer);
    }

    @Override
    public CompletableFuture<GetItemResponse> getItem(GetItemRequest request) {
        GetItemAnswer answer = getItemAnswers.getOrDefault(Key.of(request.key()), GetItemAnswer.ITEM);
        if (answer == GetItemAnswer.NONE) {
            return new CompletableFuture<>();
        }
        if (answer == GetItemAnswer.REFUSAL) {
            return later(() -> {
                throw DynamoDbException.builder().statusCode(400).message("refused by the test").build();
            });
        }
        return later(() -> {
            Map<String, AttributeValue> item = items.get(Key.of(request.key()));
            record("GetItem", Key.of(request.key()), 0, 0, ItemSizes.readUnits(ItemSizes.of(item),
                    Boolean.TRUE.equals(request.consistentRead())), 0, false);
            return GetItemResponse.builder().item(item).build();
        });
    }

    @Override
    public CompletableFuture<BatchGetItemResponse> batchGetItem(BatchGetItemRequest request) {
        return later(() -> {
            Map<String, List<Map<String, AttributeValue>>> responses = new HashMap<>();
            double units = 0;
            List<String> keys = new ArrayList<>();
            for (Map.Entry<String, KeysAndAttributes> table : request.requestItems().entrySet()) {
                List<Map<String, AttributeValue>> found = new ArrayList<>();
                for (Map<String, AttributeValue> key : table.getValue().keys()) {
                    Map<String, AttributeValue> item = items.get(Key.of(key));
                    units += ItemSizes.readUnits(ItemSizes.of(item), Boolean.TRUE.equals(table.getValue()
                            .consistentRead()));
                    keys.add(Key.of(key).toString());
                    if (item != null) {
                        found.add(item);
                    }
                }
                responses.put(table.getKey(), found);
            }
            calls.add(new Call("BatchGetItem", String.join(" ", keys), round, 0, 0, units, 0, false));
            return BatchGetItemResponse.builder().responses(responses).unprocessedKeys(Map.of()).build();
        });
    }

    /**
     * The process crashes in the {@code round}-th round from now (1: the next): of the writes in flight then, the n-th
     * (from 0) is made when {@code landing} holds for n and lost with the process otherwise; the round's reads and
     * everything after it are never answered, so what the process would have done next is never sent.
     */
    void crashInRound(int round, IntPredicate landing) {
        this.landing = landing;
        roundsToCrash = round;
        crashed = false;
        crashRoundWrites = 0;
    }

    /** Whether the armed crash came; none comes later either way. */
    boolean crashed() {
        landing = null;
        return crashed;
    }

    /** How many writes were in flight in the crash's round. */
    int crashRoundWrites() {
        return crashRoundWrites;
    }

    @Override
    public CompletableFuture<UpdateItemResponse> updateItem(UpdateItemRequest request) {
        return written(() -> {
            Key key = Key.of(request.key());
            if (failingNextUpdate.remove(key)) {
                throw DynamoDbException.builder().statusCode(500).message("failed by the test").build();
            }
            Map<String, AttributeValue> before = items.get(key);
            if (!Expressions.holds(request.conditionExpression(), request.expressionAttributeNames(),
                    request.expressionAttributeValues(), before)) {
                record("UpdateItem", key, ItemSizes.writeUnits(before, null), 0, 0, 0, true);
                throw ConditionalCheckFailedException.builder().message("The conditional request failed").build();
            }
            Map<String, AttributeValue> after = Expressions.update(request.updateExpression(),
                    request.expressionAttributeNames(), request.expressionAttributeValues(), request.key(), before);
            write(key, after);
            record("UpdateItem", key, ItemSizes.writeUnits(before, after), indexWriteUnits(before, after), 0,
                    ItemSizes.of(after), false);
            UpdateItemResponse.Builder response = UpdateItemResponse.builder();
            if (request.returnValues() == ReturnValue.ALL_NEW) {
                response.attributes(after);
            }
            return response.build();
        });
    }

    @Override
    public CompletableFuture<DeleteItemResponse> deleteItem(DeleteItemRequest request) {
        return written(() -> {
            Key key = Key.of(request.key());
            if (failingDeletes.contains(key)) {
                throw DynamoDbException.builder().statusCode(500).message("failed by the test").build();
            }
            Map<String, AttributeValue> before = items.get(key);
            if (!Expressions.holds(request.conditionExpression(), request.expressionAttributeNames(),
                    request.expressionAttributeValues(), before)) {
                record("DeleteItem", key, ItemSizes.writeUnits(before, null), 0, 0, 0, true);
                throw ConditionalCheckFailedException.builder().message("The conditional request failed").build();
            }
            write(key, null);
            record("DeleteItem", key, ItemSizes.writeUnits(before, null), indexWriteUnits(before, null), 0, 0, false);
            return DeleteItemResponse.builder().build();
        });
    }

    @Override
    public CompletableFuture<PutItemResponse> putItem(PutItemRequest request) {
        return written(() -> {
            Key key = Key.of(request.item());
            Map<String, AttributeValue> before = items.get(key);
            write(key, request.item());
            record("PutItem", key, ItemSizes.writeUnits(before, request.item()), indexWriteUnits(before,
                    request.item()), 0, ItemSizes.of(request.item()), false);
            return PutItemResponse.builder().build();
        });
    }

    @Override
    public CompletableFuture<BatchWriteItemResponse> batchWriteItem(BatchWriteItemRequest request) {
        return written(() -> {
            int units = 0;
            int indexUnits = 0;
            int bytes = 0;
            List<String> keys = new ArrayList<>();
            for (List<WriteRequest> writes : request.requestItems().values()) {
                for (WriteRequest write : writes) {
                    Map<String, AttributeValue> after = write.putRequest() != null ? write.putRequest().item() : null;
                    Key key = Key.of(after != null ? after : write.deleteRequest().key());
                    Map<String, AttributeValue> before = items.get(key);
                    write(key, after);
                    units += ItemSizes.writeUnits(before, after);
                    indexUnits += indexWriteUnits(before, after);
                    bytes += ItemSizes.of(after);
                    keys.add(key.toString());
                }
            }
            calls.add(new Call("BatchWriteItem", String.join(" ", keys), round, units, indexUnits, 0, bytes, false));
            return BatchWriteItemResponse.builder().unprocessedItems(Map.of()).build();
        });
    }

    @Override
    public CompletableFuture<QueryResponse> query(QueryRequest request) {
        // A read of a GSI entry back from its index (TableWriter.INDEX_CHECK) is answered but not counted: the tables
        // leave those reads out (capacity.md says so), also when a batch end's check waits for them.
        boolean indexCheck = TableWriter.INDEX_CHECK.equals(ModelTables.currentSource());
        return later(() -> {
            Index index = request.indexName() == null ? Index.TABLE : indexNamed(request.indexName());
            boolean ascending = !Boolean.FALSE.equals(request.scanIndexForward());
            Comparator<Map<String, AttributeValue>> order = Comparator.comparing(
                    item -> item.get(index.skAttribute()).s());
            List<Map<String, AttributeValue>> matching = items.values().stream()
                    .filter(item -> item.containsKey(index.pkAttribute()) && item.containsKey(index.skAttribute()))
                    .filter(item -> Expressions.matchesKey(request.keyConditionExpression(),
                            request.expressionAttributeNames(), request.expressionAttributeValues(), item))
                    .sorted(ascending ? order : order.reversed())
                    .toList();
            int from = 0;
            if (request.hasExclusiveStartKey() && !request.exclusiveStartKey().isEmpty()) {
                Key start = Key.of(request.exclusiveStartKey());
                while (from < matching.size() && !Key.of(matching.get(from)).equals(start)) {
                    from++;
                }
                from++;
            }
            int limit = request.limit() == null ? Integer.MAX_VALUE : request.limit();
            List<Map<String, AttributeValue>> page = matching.subList(Math.min(from, matching.size()),
                    Math.min(matching.size(), from + limit));
            int bytes = page.stream().mapToInt(item -> index == Index.TABLE ? ItemSizes.of(item)
                    : ItemSizes.of(indexEntry(index, item))).sum();
            double units = ItemSizes.readUnits(bytes, Boolean.TRUE.equals(request.consistentRead()));
            if (!indexCheck) {
                calls.add(new Call("Query", index + " " + request.expressionAttributeValues().get(":pk").s(), round, 0,
                        0, units, 0, false, page.isEmpty() ? 0 : units));
            }
            QueryResponse.Builder response = QueryResponse.builder().items(page).count(page.size());
            if (from + limit < matching.size()) {
                Map<String, AttributeValue> last = page.get(page.size() - 1);
                Map<String, AttributeValue> lastKey = new LinkedHashMap<>(Key.of(last).toAttributes());
                if (index != Index.TABLE) {
                    lastKey.put(index.pkAttribute(), last.get(index.pkAttribute()));
                    lastKey.put(index.skAttribute(), last.get(index.skAttribute()));
                }
                response.lastEvaluatedKey(lastKey);
            }
            return response.build();
        });
    }

    // --- pricing -------------------------------------------------------------------------------------------------

    /**
     * The index writes a table write makes: for each GSI, one write of the entry's size (in KB, rounded up) where an
     * entry is added, changed or removed, and two where its key moves (the old entry goes, a new one comes).
     */
    static int indexWriteUnits(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        int units = 0;
        for (Index index : List.of(Index.GSI1, Index.GSI2)) {
            Map<String, AttributeValue> old = indexEntry(index, before);
            Map<String, AttributeValue> now = indexEntry(index, after);
            if (old == null && now == null || old != null && old.equals(now)) {
                continue;
            }
            boolean moved = old != null && now != null && (!old.get(index.pkAttribute()).equals(
                    now.get(index.pkAttribute())) || !old.get(index.skAttribute()).equals(now.get(index.skAttribute())));
            if (moved) {
                units += ItemSizes.writeUnits(old, null) + ItemSizes.writeUnits(null, now);
            } else {
                units += ItemSizes.writeUnits(old, now);
            }
        }
        return units;
    }

    /** The item's entry in the GSI (its keys, the table's keys and the projected attributes), or null if it has none. */
    static Map<String, AttributeValue> indexEntry(Index index, Map<String, AttributeValue> item) {
        if (item == null || !item.containsKey(index.pkAttribute()) || !item.containsKey(index.skAttribute())) {
            return null;
        }
        Set<String> kept = new java.util.HashSet<>(KeyPlan.projectedAttributes(index));
        kept.addAll(List.of(Key.PK, Key.SK, index.pkAttribute(), index.skAttribute()));
        Map<String, AttributeValue> entry = new TreeMap<>();
        item.forEach((name, value) -> {
            if (kept.contains(name)) {
                entry.put(name, value);
            }
        });
        return entry;
    }

    private static Index indexNamed(String name) {
        for (Index index : Index.values()) {
            if (name.equals(index.indexName())) {
                return index;
            }
        }
        throw new IllegalArgumentException("no index " + name);
    }

    private void write(Key key, Map<String, AttributeValue> item) {
        if (item == null) {
            items.remove(key);
        } else {
            items.put(key, Map.copyOf(item));
        }
    }

    private void record(String operation, Key key, int writeUnits, int indexWriteUnits, double readUnits, int bytes,
            boolean failed) {
        calls.add(new Call(operation, key.toString(), round, writeUnits, indexWriteUnits, readUnits, bytes, failed));
    }

    /** The call's answer, given when the next round is run. */
    private <T> CompletableFuture<T> later(Supplier<T> answer) {
        return pending(answer, false);
    }

    /** A write's answer, given when the next round is run: a crash in that round may lose it. */
    private <T> CompletableFuture<T> written(Supplier<T> answer) {
        return pending(answer, true);
    }

    private <T> CompletableFuture<T> pending(Supplier<T> answer, boolean write) {
        CompletableFuture<T> future = new CompletableFuture<>();
        inFlight.add(new Pending(() -> {
            T result;
            try {
                result = answer.get();
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
                return;
            }
            future.complete(result);
        }, write));
        return future;
    }
}
