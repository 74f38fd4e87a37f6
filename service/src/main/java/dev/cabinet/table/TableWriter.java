package dev.cabinet.table;

import dev.cabinet.table.AttributeValues;
import dev.cabinet.table.ItemUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableConfig;
import dev.cabinet.shared.CoalescedWrites;
import dev.cabinet.shared.InFlight;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The write side of the one store: conditional updates, consistent reads of what is about to be written, batch writes
 * and exactly-once counters. {@link TableReader} is the read side; nothing outside table/ holds a DynamoDB client.
 */
@ApplicationScoped
@CallsAws({ IamRole.PROJECTOR, IamRole.OPERATOR })
public class TableWriter {

    /** The string set on a counter item that holds the tokens of counter changes still being completed. */
    public static final String PENDING_COUNTS = "pendingCounts";

    /** Far beyond the client's own api-call-timeout (4 s): only a call whose end got lost reaches it. */
    static final Duration CALL_LIMIT = Duration.ofSeconds(15);

    /**
     * The timers of {@link #CALL_LIMIT}, on a thread of their own whose queue drops a timer when its call ends, so it
     * holds only the calls in flight. Mutiny's default, the worker pool's scheduler, keeps a cancelled timer queued
     * until it would have fired: 15 s of calls in a sorted set, whose insertions took 3.5% of a projector's CPU
     * under load (JFR, docs/benchmarks-history.md).
     */
    private static final ScheduledExecutorService CALL_TIMERS = callTimers();

    /** The source the index checks' reads are counted against ({@link StoreCallSource}). */
    public static final String INDEX_CHECK = "index-check";

    /** BatchWriteItem's limit. */
    private static final int BATCH_SIZE = 25;

    /** Calls whose future has not ended: one older than {@link #CALL_LIMIT} means the bound did not end it either. */
    private final InFlight calls = new InFlight();

    private final DynamoDbAsyncClient dynamo;
    private final String table;
    private final CoalescedReads reads;
    /** Exactly-once counter changes, one write in flight per counter attribute ({@link #changeCounter}). */
    private final CoalescedWrites<Counter, CounterChange, Answer> counterChanges =
            new CoalescedWrites<>(this::changeCounter);
    /** The GSI entries written here that an index read has not shown yet. */
    private final IndexVisibility indexes;

    TableWriter(DynamoDbAsyncClient dynamo, TableConfig table, MeterRegistry registry) {
        this.dynamo = dynamo;
        this.table = table.target();
        this.reads = new CoalescedReads(table.readsInFlight(), key -> read(this.table, key),
                keys -> BatchGets.all(this.table, keys, true, UnprocessedRetries.FOR_PROJECTOR,
                        request -> call(() -> dynamo.batchGetItem(request))));
        this.indexes = new IndexVisibility(this::indexEntry, this::read, table.indexWait(), registry);
        calls.register(registry, "cabinet.store.calls.in_flight", "the write side's store calls that have begun and "
                + "not ended", Tags.empty());
    }

    /**
     * A store call, made when subscribed to (StoreCallMeter times every call by operation and outcome). The client gives
     * up after quarkus.dynamodb.api-call-timeout; should its future still never end (a completion lost in the client's
     * connection pool), the call fails as a transient client error after {@link #CALL_LIMIT}, so the projector retries
     * it and no batch waits for it forever.
     */
    private <T> Uni<T> call(Supplier<CompletionStage<T>> call) {
        // The source the work names (StoreCallSource) is current on the thread while the call is made.
        return bounded(calls.track(Uni.createFrom().context(context -> {
            String source = StoreCallSource.in(context);
            return Uni.createFrom().completionStage(() -> StoreCallSource.during(source, call));
        })), CALL_LIMIT);
    }

    /** The call, failed as a transient client error (retried like a timeout) if it has not ended after {@code limit}. */
    static <T> Uni<T> bounded(Uni<T> call, Duration limit) {
        return call.ifNoItem().after(limit).on(CALL_TIMERS).failWith(() -> SdkClientException.create(
                "the store call did not end within " + limit.toMillis() + " ms"));
    }

    /** How many call timers are queued: only those of calls still in flight. */
    static int callTimersQueued() {
        return ((ScheduledThreadPoolExecutor) CALL_TIMERS).getQueue().size();
    }

    private static ScheduledExecutorService callTimers() {
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, work -> {
            Thread thread = new Thread(work, "cabinet-store-call-timers");
            thread.setDaemon(true);
            return thread;
        });
        timers.setRemoveOnCancelPolicy(true);
        return timers;
    }

    /**
     * Deletes the item unless it has seen a later version of the stream than {@code version}: a redelivered old event
     * never deletes what a newer one wrote. {@code false} when the condition stopped it.
     */
    public Uni<Boolean> delete(Key key, String versionAttribute, long version) {
        return call(() -> dynamo.deleteItem(b -> b.tableName(table).key(key.toAttributes())
                .conditionExpression("attribute_not_exists(#v) OR #v < :v")
                .expressionAttributeNames(Map.of("#v", versionAttribute))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN(Long.toString(version))))))
                .invoke(() -> indexes.deleted(key))
                .map(response -> true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /** Deletes the item, whatever it holds (gone already is fine). */
    public Uni<Void> delete(Key key) {
        return call(() -> dynamo.deleteItem(b -> b.tableName(table).key(key.toAttributes())))
                .invoke(() -> indexes.deleted(key)).replaceWithVoid();
    }

    /** Deletes the item only if the attribute holds exactly this value: {@code false} when it did not (or is gone). */
    public Uni<Boolean> deleteIfEquals(Key key, String attribute, Object value) {
        return call(() -> dynamo.deleteItem(b -> b.tableName(table).key(key.toAttributes())
                .conditionExpression("#a = :v")
                .expressionAttributeNames(Map.of("#a", attribute))
                .expressionAttributeValues(Map.of(":v", AttributeValues.of(value)))))
                .invoke(() -> indexes.deleted(key))
                .map(response -> true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /**
     * Walks every item the query finds, page by page, and runs {@code action} on each, {@code walk.concurrency()} at a
     * time; the next page is read only when the current one is done, so memory stays bounded however many items there
     * are. Base-table queries read consistently; GSI queries cannot (DynamoDB propagates GSIs asynchronously).
     * Emits the number of items walked.
     */
    public Uni<Long> forEach(KeyQuery query, Walk walk, Function<Map<String, AttributeValue>, Uni<?>> action) {
        return page(query, walk, null).chain(first -> forEach(query, walk, action, first));
    }

    /**
     * The walk over the query's items from its first page, read already ({@link #firstPage}): a walk whose first page
     * was asked for beside another call takes one round fewer.
     */
    public Uni<Long> forEach(KeyQuery query, Walk walk, Function<Map<String, AttributeValue>, Uni<?>> action,
            Page first) {
        return forEachFrom(query, walk, action, first, 0);
    }

    /** The first page of a walk over the query's items (see {@link #forEach(KeyQuery, Walk, Function, Page)}). */
    public Uni<Page> firstPage(KeyQuery query, Walk walk) {
        return page(query, walk, null);
    }

    /** One page of a walk: its items, and the key the next page starts after (null after the last page). */
    public record Page(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> next) {
    }

    private Uni<Page> page(KeyQuery query, Walk walk, Map<String, AttributeValue> start) {
        QueryRequest.Builder request = query.toRequest(table).limit(walk.pageSize())
                .consistentRead(query.index() == Index.TABLE);
        if (start != null) {
            request.exclusiveStartKey(start);
        }
        QueryRequest built = request.build();
        return call(() -> dynamo.query(built)).map(page -> new Page(page.items(),
                page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null));
    }

    private Uni<Long> forEachFrom(KeyQuery query, Walk walk, Function<Map<String, AttributeValue>, Uni<?>> action,
            Page page, long walked) {
        long total = walked + page.items().size();
        Uni<Void> acted = Multi.createFrom().iterable(page.items())
                .onItem().transformToUni(item -> action.apply(item).replaceWithVoid())
                .merge(walk.concurrency())
                .collect().last();
        return page.next() == null ? acted.replaceWith(total)
                : acted.chain(() -> page(query, walk, page.next()))
                        .chain(next -> forEachFrom(query, walk, action, next, total));
    }

    /**
     * Deletes every item the query finds, 25 per BatchWriteItem; used for a whole item collection that goes away with
     * its owner (a deleted post's comments). The next page is read, from the page's last key, while the page is
     * deleted (one delete and one query in flight at most), and a page without a last key is the end: a round per page
     * and one more, where querying again from the start after every page took two per page and a last, empty one. An
     * item written into the collection after its query is the owner's to find, not this walk's: the owner's tombstone
     * is written first, and every write of such an item from another stream looks at it again when its batch ends
     * ({@link dev.cabinet.projection.WritePlan.OrphanCheck}).
     */
    public Uni<Void> deleteAll(KeyQuery query) {
        return deletionPage(query, null).chain(page -> deletePages(query, page));
    }

    private Uni<Void> deletePages(KeyQuery query, QueryResponse page) {
        Uni<Void> deleted = page.items().isEmpty() ? Uni.createFrom().voidItem()
                : writeBatch(page.items().stream()
                        .map(item -> WriteRequest.builder().deleteRequest(d -> d.key(Map.of(
                                Key.PK, item.get(Key.PK), Key.SK, item.get(Key.SK)))).build())
                        .toList(), 0)
                        .invoke(() -> page.items().forEach(item -> indexes.deleted(Key.of(item))));
        if (!page.hasLastEvaluatedKey() || page.lastEvaluatedKey().isEmpty()) {
            return deleted;
        }
        return Uni.combine().all().unis(deleted, deletionPage(query, page.lastEvaluatedKey())).asTuple()
                .chain(both -> deletePages(query, both.getItem2()));
    }

    /** One consistent page of up to 25 of the query's items, from {@code start} (null: the first). */
    private Uni<QueryResponse> deletionPage(KeyQuery query, Map<String, AttributeValue> start) {
        QueryRequest.Builder request = query.toRequest(table).limit(BATCH_SIZE).consistentRead(true);
        if (start != null) {
            request.exclusiveStartKey(start);
        }
        return call(() -> dynamo.query(request.build()));
    }

    /**
     * Writes whole items, 25 per BatchWriteItem, a few batches at a time; for facts that are the same however often
     * they are written (metric samples). Duplicate keys within a chunk are reduced to the last, as DynamoDB refuses them.
     */
    public Uni<Void> putAll(List<Map<String, AttributeValue>> items) {
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> byKey = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : items) {
            byKey.put(Map.of(Key.PK, item.get(Key.PK), Key.SK, item.get(Key.SK)), item);
        }
        List<WriteRequest> puts = byKey.values().stream()
                .map(item -> WriteRequest.builder().putRequest(p -> p.item(item)).build())
                .toList();
        List<List<WriteRequest>> batches = new ArrayList<>();
        for (int from = 0; from < puts.size(); from += BATCH_SIZE) {
            batches.add(puts.subList(from, Math.min(from + BATCH_SIZE, puts.size())));
        }
        return Multi.createFrom().iterable(batches)
                .onItem().transformToUni(batch -> writeBatch(batch, 0)).merge(4)
                .collect().last()
                .replaceWithVoid();
    }

    /** One BatchWriteItem, resubmitting what DynamoDB left unprocessed (it does so under throttling), with backoff. */
    private Uni<Void> writeBatch(List<WriteRequest> writes, int round) {
        return call(() -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, writes))))
                .chain(response -> {
                    List<WriteRequest> left = response.unprocessedItems().getOrDefault(table, List.of());
                    return left.isEmpty() ? Uni.createFrom().voidItem()
                            : UnprocessedRetries.after(round, UnprocessedRetries.FOR_PROJECTOR, left.size() + " writes",
                                    () -> writeBatch(left, round + 1));
                });
    }

    /**
     * Applies the update; {@code false} when its condition did not hold (already applied, or nothing to update). An item
     * with GSI entries is answered as written (ALL_NEW, which costs no read units) so that {@link #indexesShowWrites} can
     * wait for its entries.
     */
    public Uni<Boolean> update(ItemUpdate update) {
        if (indexes.follows(update.key())) {
            return updateAndGet(update).map(Optional::isPresent);
        }
        return call(() -> dynamo.updateItem(update.toRequest(table)))
                .map(response -> true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /**
     * Completes once an index read shows every GSI entry that updates through this writer added or changed before the
     * call (at most {@code cabinet.table.index-wait} each): DynamoDB propagates index entries after the write answers.
     */
    public Uni<Void> indexesShowWrites() {
        return indexes.settled();
    }

    /**
     * Completes once an index read shows the GSI entries that updates through this writer gave these items (at most
     * {@code cabinet.table.index-wait} each; at once with none awaited, or with the wait turned off).
     */
    public Uni<Void> indexesShowWritesOf(Collection<Key> items) {
        return indexes.settled(items);
    }

    /** The item's entry as an index read finds it under the entry's keys now (never a consistent read: a GSI has none). */
    private Uni<Optional<Map<String, AttributeValue>>> indexEntry(IndexVisibility.Expected expected) {
        Index index = expected.entry().index();
        QueryRequest request = QueryRequest.builder()
                .tableName(table)
                .indexName(index.indexName())
                .keyConditionExpression("#pk = :pk AND #sk = :sk")
                .expressionAttributeNames(Map.of("#pk", index.pkAttribute(), "#sk", index.skAttribute()))
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(expected.partition()),
                        ":sk", AttributeValue.fromS(expected.sortKey())))
                .build();
        return StoreCallSource.of(INDEX_CHECK, () -> call(() -> dynamo.query(request)))
                .map(page -> page.items().stream().filter(item -> Key.of(item).equals(expected.item())).findFirst());
    }

    /**
     * Applies the update and answers the whole item as the update left it ({@code ALL_NEW}): a write that is followed
     * by a look at the same item needs no read. Empty when the condition did not hold.
     */
    public Uni<Optional<Map<String, AttributeValue>>> updateAndGet(ItemUpdate update) {
        UpdateItemRequest request = update.toRequest(table).toBuilder().returnValues(ReturnValue.ALL_NEW).build();
        return call(() -> dynamo.updateItem(request))
                .invoke(response -> indexes.wrote(response.attributes()))
                .map(response -> Optional.of(response.attributes()))
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(Optional.empty());
    }

    /** A strongly consistent read, so a projector sees what earlier events of the same key wrote. */
    public Uni<Optional<Map<String, AttributeValue>>> read(Key key) {
        return readAll(List.of(key)).map(found -> found.get(0));
    }

    /**
     * Strongly consistent reads of these keys in one round, in the order asked (empty where there is no item): one
     * GetItem for a single key, else one BatchGetItem per 100 keys. The executor reads a stream's root, its tombstone
     * and what its projector needs together; one request instead of one per key spares the client's and the store's
     * work per call, which is most of a projector's. While {@code cabinet.table.reads-in-flight} reads are in flight,
     * reads wait and go out together ({@link CoalescedReads}). Keys the store leaves unprocessed (throttling) are asked
     * for again after a pause.
     */
    public Uni<List<Optional<Map<String, AttributeValue>>>> readAll(List<Key> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.createFrom().context(context -> Uni.createFrom()
                .completionStage(() -> reads.read(keys, StoreCallSource.in(context)))
                .map(found -> keys.stream().map(key -> Optional.ofNullable(found.get(key))).toList()));
    }

    /** A strongly consistent read of another table than the one this projector writes (the one answering reads). */
    public Uni<Optional<Map<String, AttributeValue>>> read(String tableName, Key key) {
        return call(() -> dynamo.getItem(b -> b.tableName(tableName).key(key.toAttributes())
                .consistentRead(true)))
                .map(Items::found);
    }

    /**
     * Changes a counter exactly once without transactions (dynalite has none, and DynamoDB's cost twice as much):
     * <ol>
     * <li>if the marker item already says it was counted, only step 4 remains;</li>
     * <li>change the counter, adding the token to its pending set, unless the token is already there;</li>
     * <li>flag the marker as counted, with the change's version ({@link #flagCounted});</li>
     * <li>remove the token from the counter's pending set: {@link #releaseCountTokens}, the caller's once this call has
     * ended (the projector releases the tokens of many changes to one counter in one write, before their batch ends).</li>
     * </ol>
     * The projector makes steps 3 and 4 for a whole batch when it ends ({@code projection/CountTokenRelease}), off the
     * events' path; this call makes step 3 itself.
     * A crash between any two steps is repaired by applying the event again: step 2's condition stops a second
     * change, step 1 stops one after the token was removed. The pending set holds the changes in flight, and those left
     * pending on purpose: an attempt that failed after its change (its retry releases the token) and the changes of
     * batches handed over to another owner unfinished (whose redo releases them).
     * <p>
     * Step 2 does not stop an attempt that read the marker unflagged and then stalled while the next owner of its log
     * partition counted, flagged and released: its change carries an {@link OwnerFence}, refused once a newer owner's
     * change reached the counter (see {@link #changeCounter}).
     * Answers the counter item as step 2 left it, when this call made the change.
     */
    public Uni<Optional<Map<String, AttributeValue>>> countOnce(CounterChange change) {
        return read(change.marker()).chain(marker -> countOnce(change, marker));
    }

    /**
     * As {@link #countOnce(CounterChange)}, for a caller that has just written the marker and holds it as it is now
     * (from {@link #updateAndGet}): step 1 needs no read then.
     */
    public Uni<Optional<Map<String, AttributeValue>>> countOnce(CounterChange change,
            Optional<Map<String, AttributeValue>> markerNow) {
        boolean alreadyCounted = markerNow.map(item -> CounterChange.counted(item, change.markerFlag(),
                change.version())).orElse(true);
        return alreadyCounted ? Uni.createFrom().item(Optional.empty()) : changeAndFlag(change);
    }

    /**
     * Step 4 of {@link #countOnce}: removes the tokens of changes whose markers are flagged from the counter's pending
     * set, in one write however many there are.
     */
    public Uni<Void> releaseCountTokens(Key counter, Collection<String> tokens) {
        return update(ItemUpdate.of(counter).deleteFromSet(PENDING_COUNTS, tokens).onlyIfExists()).replaceWithVoid();
    }

    private Uni<Optional<Map<String, AttributeValue>>> changeAndFlag(CounterChange change) {
        return changeCounter(change).call(() -> flagCounted(change));
    }

    /**
     * Step 2 of {@link #countOnce} alone: the counter changes, with the token pending, unless the token is pending
     * already. For a caller that knows its marker is not flagged (it creates the marker now, for an event applied the
     * first time), so that the change need not wait for the marker; {@link #flagCounted} must follow both.
     * <p>
     * A change with an {@link OwnerFence} also needs the counter to hold no newer epoch of its partition, and leaves
     * its own there. Refused, it reads the counter once: its token pending means made before (the answer is empty, as
     * for any change made before); not pending, a newer owner counted there and this attempt is stale, and the call
     * fails with {@link FencedCountException}. The newer owner counts this event too (its marker is unflagged) or has
     * counted it already: either way this attempt must neither count nor flag.
     */
    public Uni<Optional<Map<String, AttributeValue>>> changeCounter(CounterChange change) {
        Counter counter = new Counter(change.counter(), change.counterType(), change.attribute());
        // A change made at once is counted against this work's source; one that waited for another is not.
        return Uni.createFrom().context(context -> Uni.createFrom().completionStage(() -> StoreCallSource.during(
                StoreCallSource.in(context), () -> counterChanges.record(counter, change))))
                .chain(answer -> answer.fenced() ? Uni.createFrom().failure(new FencedCountException(change))
                        : Uni.createFrom().item(answer.counterNow()));
    }

    /**
     * Step 3 of {@link #countOnce}: the marker records the version that counted it. A marker gone meanwhile stays gone,
     * and a flag of a later version stays as it is: written late, a flag never goes back.
     */
    public Uni<Boolean> flagCounted(CounterChange change) {
        return update(ItemUpdate.of(change.marker()).set(change.markerFlag(), change.version()).onlyIfExists()
                .onlyIfBelow(change.markerFlag(), change.version()));
    }

    /**
     * Step 2 of {@link #countOnce} for every change that waited while one to the same counter was in flight: one write
     * of the sum of their deltas that adds all their tokens, unless one of the tokens is pending already (the redo of a
     * change cut short), when each change is made on its own. Answers each change the counter as it left it, or
     * nothing for a change made before.
     * <p>
     * Two attempts of one change can wait together: an event retried while its failed attempt's change still waited
     * behind the write in flight. They share a token, and the token's condition is written once, so summed they would
     * count twice (the crash test's store outage found a postCount one too high). Only the first of them goes out; the
     * others answer nothing, as they would after it one at a time.
     */
    private CompletionStage<List<Answer>> changeCounter(Counter counter, List<CounterChange> changes) {
        Map<String, CounterChange> firstByToken = new LinkedHashMap<>();
        changes.forEach(change -> firstByToken.putIfAbsent(change.token(), change));
        List<CounterChange> distinct = List.copyOf(firstByToken.values());
        Uni<List<Answer>> changed = updateAndGet(counter.change(distinct))
                .chain(now -> now.isPresent()
                        ? Uni.createFrom().item(Collections.nCopies(distinct.size(), new Answer(now, false)))
                        : distinct.size() == 1 ? refused(distinct.get(0)).map(List::of)
                        : Uni.join().all(distinct.stream().map(one -> updateAndGet(counter.change(List.of(one)))
                                .chain(alone -> alone.isPresent() ? Uni.createFrom().item(new Answer(alone, false))
                                        : refused(one)))
                                .toList()).andFailFast());
        return changed.map(answers -> {
            Map<String, Answer> byToken = new HashMap<>();
            for (int i = 0; i < distinct.size(); i++) {
                byToken.put(distinct.get(i).token(), answers.get(i));
            }
            // The first change of a token takes its answer; a repeat finds it taken and answers nothing, unless the
            // first was fenced: then so is the repeat (made before, it would flag a marker that nobody counted).
            Set<String> answered = new HashSet<>();
            return changes.stream().map(change -> {
                Answer first = byToken.get(change.token());
                return answered.add(change.token()) || first.fenced() ? first : Answer.MADE_BEFORE;
            }).toList();
        }).subscribeAsCompletionStage();
    }

    /**
     * What a change refused on its own means: made before, unless it carries a fence and its token is not pending (a
     * newer owner's change refused it). An unfenced change needs no read: only its token can refuse it.
     * <p>
     * A fenced change found made before leaves its epoch on the counter, as it would have had it been made: an older
     * owner's attempt made the change, and this owner will release its token. Without its epoch there, the counter
     * would hold only the older owner's, and a second attempt of that owner, stalled since it read the marker
     * unflagged, would find the token gone and its epoch current, and count the event again.
     */
    private Uni<Answer> refused(CounterChange change) {
        if (change.fence() == null) {
            return Uni.createFrom().item(Answer.MADE_BEFORE);
        }
        String epoch = change.fence().attribute();
        return read(change.counter()).chain(counter -> {
            boolean pending = counter.map(item -> item.get(PENDING_COUNTS))
                    .filter(tokens -> tokens.hasSs() && tokens.ss().contains(change.token())).isPresent();
            if (!pending) {
                return Uni.createFrom().item(Answer.FENCED);
            }
            boolean current = counter.map(item -> item.get(epoch)).map(value -> value.n() != null
                    && Long.parseLong(value.n()) >= change.fence().epoch()).orElse(false);
            return current ? Uni.createFrom().item(Answer.MADE_BEFORE)   // a redo of this owner's own change
                    : update(ItemUpdate.of(change.counter()).set(epoch, change.fence().epoch()).onlyIfExists()
                            .onlyIfBelow(epoch, change.fence().epoch())).replaceWith(Answer.MADE_BEFORE);
        });
    }

    /** One change's outcome: the counter as it left it (empty: made before), or refused by a newer owner's fence. */
    private record Answer(Optional<Map<String, AttributeValue>> counterNow, boolean fenced) {

        static final Answer MADE_BEFORE = new Answer(Optional.empty(), false);
        static final Answer FENCED = new Answer(Optional.empty(), true);
    }

    /** The counter attribute that changes are coalesced on: one write in flight for it at a time. */
    private record Counter(Key key, String type, String attribute) {

        /**
         * The changes made at once: their deltas summed, their tokens added, none of them pending before; per partition
         * fenced, no epoch newer than the oldest of theirs on the counter, and the newest of theirs left there (two
         * epochs of one partition meet here only across a reassignment to this instance: refused, each goes alone).
         */
        ItemUpdate change(List<CounterChange> changes) {
            List<String> tokens = changes.stream().map(CounterChange::token).toList();
            ItemUpdate update = ItemUpdate.of(key)
                    .setIfAbsent(KeyPlan.TYPE, type)
                    .increment(attribute, changes.stream().mapToLong(CounterChange::delta).sum())
                    .addToSet(PENDING_COUNTS, tokens);
            tokens.stream().distinct().forEach(token -> update.onlyIfSetLacks(PENDING_COUNTS, token));
            Map<String, long[]> epochs = new TreeMap<>();   // per fence attribute: oldest and newest epoch
            changes.stream().map(CounterChange::fence).filter(Objects::nonNull).forEach(fence -> epochs.merge(
                    fence.attribute(), new long[] { fence.epoch(), fence.epoch() },
                    (a, b) -> new long[] { Math.min(a[0], b[0]), Math.max(a[1], b[1]) }));
            epochs.forEach((fence, range) -> update.onlyIfBelow(fence, range[0] + 1).set(fence, range[1]));
            return update;
        }
    }
}
