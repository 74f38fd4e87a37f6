package dev.cabinet.rebuild;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jboss.logging.Logger;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.http.Problems;
import dev.cabinet.projection.execution.EventApplier;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.failure.UnappliableEventException;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableConfig;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.Walk;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Rebuilds one aggregate's items from its events, through the projectors and the executor the live projector uses (as
 * {@link EventApplier} applies them for the engine and for an operator's retry): the key's records are read from its
 * partition, the stream's items reset (its kind's {@link StreamReset} says which), and the events applied again in log
 * order. Posts, customers, groups, files and users so far: {@link #KINDS}.
 * <p>
 * The live projector keeps running meanwhile; nothing holds the key (a parked key is the engine's only hold, and the
 * engine reads parked keys from a cache up to a second old, so it cannot be relied on to stop an event already on its
 * way). Instead the rebuild is optimistic and checks itself: it starts only once the live projector has applied every
 * event it will apply again (so the counts those made are known to be made), and after applying them it reads the
 * key's partition again. An event of the key that arrived meanwhile may have been applied by the live projector to a
 * half-rebuilt stream (or rejected for finding no root), so the rebuild then runs again with it, every rejection
 * cleared just before its event is applied so that it is decided again in log order; every write is guarded by the
 * stream's version, so applying an event twice changes nothing. Blocking: operator requests run on worker threads.
 */
@ApplicationScoped
class StreamRebuilds {

    private static final Logger LOG = Logger.getLogger(StreamRebuilds.class);
    private static final Duration STORE_WAIT = Duration.ofSeconds(30);
    private static final Duration CATCH_UP_WAIT = Duration.ofSeconds(30);
    private static final Duration LOOK_AGAIN = Duration.ofMillis(200);
    private static final int TRANSIENT_ATTEMPTS = 5;
    private static final int MAX_ROUNDS = 5;
    private static final Walk WALK = new Walk(100, 1);
    private static final String REJECTED = "rejected";
    /** The kinds of stream that can be rebuilt one by one, by topic; another topic's are rebuilt blue/green. */
    static final Map<String, StreamReset> KINDS = Map.of(
            Topics.POSTS, new PostStreamReset(),
            Topics.CUSTOMERS, new CustomerStreamReset(),
            Topics.GROUPS, new GroupStreamReset(),
            Topics.FILES, new FileStreamReset(),
            Topics.USERS, new UserStreamReset());

    private final KeyRecords records;
    private final TableWriter store;
    private final TableConfig tables;
    private final ActiveTable activeTable;
    private final EventApplier applier;
    private final ParkedKeys parkedKeys;
    /** The streams being rebuilt by this instance: two rebuilds of one stream would reset each other's work. */
    private final Set<String> rebuilding = ConcurrentHashMap.newKeySet();

    StreamRebuilds(KeyRecords records, TableWriter store, EventApplier applier, ParkedKeys parkedKeys,
            TableConfig tables, ActiveTable activeTable) {
        this.records = records;
        this.store = store;
        this.tables = tables;
        this.activeTable = activeTable;
        this.applier = applier;
        this.parkedKeys = parkedKeys;
    }

    /** What a stream rebuild did, in its last round. */
    record StreamRebuild(String topic, String key, int partition, String stream, long lastOffset, int events,
            int discarded, int itemsDeleted, int itemsReset, int items, int rounds, String rebuiltAt) {
    }

    StreamRebuild rebuild(String topic, String key, String operator) {
        String stream = topic + " " + key;
        if (!rebuilding.add(stream)) {
            throw Problems.conflict("key " + key + " of " + topic + " is being rebuilt already");
        }
        try {
            return rebuildOnce(topic, key, operator);
        } finally {
            rebuilding.remove(stream);
        }
    }

    private StreamRebuild rebuildOnce(String topic, String key, String operator) {
        if (!Topics.ALL.contains(topic)) {
            throw Problems.notFound("topic", topic);
        }
        StreamReset kind = KINDS.get(topic);
        if (kind == null) {
            throw Problems.conflict("one stream can be rebuilt on " + String.join(", ", new TreeSet<>(KINDS.keySet()))
                    + " so far; the streams of " + topic + " are rebuilt with the whole table (blue/green)");
        }
        String active = activeTable.lookUp().await().atMost(STORE_WAIT);
        if (!tables.target().equals(active)) {
            // It writes where this instance projects: a table no one reads, after a cut-over that has not re-targeted
            // the operators' instances yet (runbook step 5), while the table answering reads stays as it was.
            throw Problems.conflict("this instance projects into table " + tables.target() + ", but reads are answered "
                    + "from table " + active + ": a stream is rebuilt where reads are answered, by an instance that "
                    + "projects there (re-target the operators' Deployment first)");
        }
        KeyRecords.Slice slice = read(topic, key, 0);
        if (slice.records().isEmpty()) {
            throw Problems.notFound("key " + key + " has no events in " + topic);
        }
        List<RecordedEvent> events = new ArrayList<>(slice.records().stream().map(RecordedEvent::of).toList());
        kind.notAStream(key, events).ifPresent(why -> {
            throw Problems.conflict("the events of key " + key + " in " + topic + " are " + why);
        });
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            Round done = once(kind, key, slice.partition(), events);
            KeyRecords.Slice newer = read(topic, key, slice.end());
            if (newer.records().isEmpty()) {
                StreamRebuild result = new StreamRebuild(topic, key, slice.partition(), kind.stream().name()
                        + " " + key, events.get(events.size() - 1).offset(), done.applied, done.discarded,
                        done.deleted, done.reset, items(kind, key, done.outside), round,
                        Timestamps.format(Instant.now()));
                LOG.infof("Stream %s of %s rebuilt by %s: %d event(s) applied again, %d item(s) now, %d round(s)",
                        key, topic, operator, result.events(), result.items(), round);
                return result;
            }
            LOG.warnf("Stream %s of %s: %d event(s) arrived while it was rebuilt; rebuilding it again with them", key,
                    topic, newer.records().size());
            events.addAll(newer.records().stream().map(RecordedEvent::of).toList());
            slice = new KeyRecords.Slice(slice.partition(), newer.end(), List.of());
        }
        throw Problems.conflict("events of key " + key + " kept arriving while it was rebuilt (" + MAX_ROUNDS
                + " rounds); try again");
    }

    /** What one round did. */
    private record Round(int applied, int discarded, int deleted, int reset, List<Key> outside) {
    }

    /**
     * One round: waits until the live projector has applied the events, resets the stream's items, and applies every
     * event again but those an operator discarded.
     */
    private Round once(StreamReset kind, String key, int partition, List<RecordedEvent> events) {
        String topic = kind.topic();
        if (await(parkedKeys.key(new LogKey(topic, partition, key).id())).isPresent()) {
            throw Problems.conflict("key " + key + " of " + topic + " is parked (GET /admin/parked-keys): retry or "
                    + "discard its events first");
        }
        long last = events.get(events.size() - 1).offset();
        awaitLiveProjector(topic, partition, last);
        Map<String, String> outcomes = outcomes(events);
        // Every event is decided again. One rejected before made no count, so its count is not held as made: it counts
        // if it applies now (rejected against a stream an earlier rebuild left half done, stopped midway). Its
        // rejection is cleared just before it is applied, so a rebuild that stops leaves the later events' rejections,
        // which its next run reads the same way; one rejected again is recorded again.
        Set<String> rejected = outcomes.entrySet().stream().filter(outcome -> REJECTED.equals(outcome.getValue()))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        List<RecordedEvent> replayed = events.stream()
                .filter(event -> !ParkedKeys.DISCARDED.equals(outcomes.get(event.id()))).toList();
        StreamReset.Reset reset = kind.reset(key, partitionItems(kind.partition(key)), replayed);
        Set<String> tokens = new HashSet<>(reset.tokens());
        tokens.removeAll(rejected);
        if (reset.counter() != null && !tokens.isEmpty()) {
            await(store.update(ItemUpdate.of(reset.counter()).addToSet(TableWriter.PENDING_COUNTS, tokens)
                    .onlyIfExists()));
        }
        int applied = 0;
        try {
            for (Key item : reset.deletes()) {
                await(store.delete(item));
            }
            for (ItemUpdate update : reset.resets()) {
                await(store.update(update));
            }
            for (RecordedEvent event : replayed) {
                if (rejected.contains(event.id())) {
                    await(store.deleteIfEquals(KeyPlan.EVENT_OUTCOME.key(event.id()), "status", REJECTED));
                }
                try {
                    await(applier.apply(event.record(), TRANSIENT_ATTEMPTS));
                } catch (UnappliableEventException e) {
                    throw Problems.conflict("the event at " + topic + "-" + partition + "@" + event.offset()
                            + " cannot be applied (" + applied + " applied before it): " + e.reason());
                }
                applied++;
            }
        } finally {
            if (reset.counter() != null && !tokens.isEmpty()) {
                await(store.releaseCountTokens(reset.counter(), tokens));
            }
        }
        List<Key> outside = reset.deletes().stream().filter(item -> !item.pk().equals(kind.partition(key))).toList();
        return new Round(applied, events.size() - replayed.size(), reset.deletes().size(), reset.resets().size(),
                outside);
    }

    /**
     * Waits until the live projector has applied the partition up to {@code offset}: then every event of the key up to
     * there was applied, rejected or parked by it, and the counts it made are made.
     */
    private void awaitLiveProjector(String topic, int partition, long offset) {
        long deadline = System.nanoTime() + CATCH_UP_WAIT.toNanos();
        while (applied(topic, partition) < offset) {
            if (System.nanoTime() > deadline) {
                throw Problems.conflict("the projector has not applied " + topic + "-" + partition + " up to offset "
                        + offset + " yet; try again once it has");
            }
            LockSupport.parkNanos(LOOK_AGAIN.toNanos());
        }
    }

    private long applied(String topic, int partition) {
        return await(store.read(ProjectionProgress.key(topic, partition)))
                .filter(item -> item.containsKey(Attributes.APPLIED_OFFSET))
                .map(item -> Items.number(item, Attributes.APPLIED_OFFSET))
                .orElse(-1L);
    }

    /** Each event's recorded outcome status ({@code rejected}, {@code discarded}, ...), by event id. */
    private Map<String, String> outcomes(List<RecordedEvent> events) {
        List<String> ids = events.stream().map(RecordedEvent::id).filter(id -> id != null && Ids.isValid(id))
                .distinct().toList();
        List<Optional<Map<String, AttributeValue>>> found = await(store.readAll(ids.stream()
                .map(id -> KeyPlan.EVENT_OUTCOME.key(id)).toList()));
        Map<String, String> outcomes = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            found.get(i).filter(item -> item.containsKey("status"))
                    .ifPresent(item -> outcomes.put(id, Items.string(item, "status")));
        }
        return outcomes;
    }

    /** Every item of the stream's partition, read consistently. */
    private List<Map<String, AttributeValue>> partitionItems(String partition) {
        List<Map<String, AttributeValue>> items = Collections.synchronizedList(new ArrayList<>());
        await(store.forEach(KeyQuery.of(Index.TABLE, partition, SortKeyCondition.any(), false),
                WALK, item -> {
                    items.add(item);
                    return Uni.createFrom().voidItem();
                }));
        return new ArrayList<>(items);
    }

    /**
     * The stream's items as the rebuild left them: those of its partition it owns, and those of its items outside the
     * partition (a post's summary, a group's memberships on the users' side) that are there.
     */
    private int items(StreamReset kind, String key, List<Key> outside) {
        long owned = partitionItems(kind.partition(key)).stream().filter(kind::owns).count();
        long there = await(store.readAll(outside)).stream().filter(Optional::isPresent).count();
        return (int) (owned + there);
    }

    private KeyRecords.Slice read(String topic, String key, long from) {
        try {
            return records.read(topic, key, from);
        } catch (UnknownTopicOrPartitionException | InvalidTopicException e) {
            throw Problems.notFound("topic", topic);
        }
    }

    private static <T> T await(Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
