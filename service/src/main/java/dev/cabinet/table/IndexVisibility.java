package dev.cabinet.table;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The GSI entries a writer's updates added or changed, until an index read shows each of them. DynamoDB updates its
 * indexes after a write has answered, so a read of the feed just after the projector wrote a post can still miss it;
 * the projector records a position as applied (what {@code Prefer: wait} and {@code Consistency-Token} wait for) only
 * once {@link #settled} says every entry written before is visible. An entry whose item was written again waits for
 * the newest version; one whose item went away, or left the index (a sparse entry removed), is no longer awaited:
 * removals are not waited for. After {@code cabinet.table.index-wait} an entry is given up with a warning and counted
 * ({@value #UNSEEN}), so that an index that never catches up cannot stop read-your-writes for good.
 */
final class IndexVisibility {

    static final String UNSEEN = "cabinet.index.entries.unseen";

    private static final Logger LOG = Logger.getLogger(IndexVisibility.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(5);
    private static final Duration LONGEST_PAUSE = Duration.ofMillis(200);
    /**
     * After this, an entry the index still does not show is compared with its item as the table holds it now: a write
     * this writer did not see (another path, another instance) may have changed what the index is to show.
     */
    private static final Duration RECHECK_ITEM_AFTER = Duration.ofSeconds(1);

    /** The item types with GSI entries, by name. */
    private static final Map<String, ItemType> INDEXED = KeyPlan.ITEM_TYPES.stream()
            .filter(type -> !type.indexEntries().isEmpty())
            .collect(Collectors.toMap(ItemType::name, type -> type));

    /** The keys of those types, as the key plan's patterns (compiled once: every update asks). */
    private static final List<Pattern[]> INDEXED_KEYS = INDEXED.values().stream()
            .map(type -> new Pattern[] { type.pk().pattern(), type.sk().pattern() })
            .toList();

    /** What an index read is to show: {@code item}'s entry in {@code entry}'s index, with these values. */
    record Expected(IndexEntry entry, Key item, Map<String, AttributeValue> values, long sequence, long sinceNanos) {

        String partition() {
            return values.get(entry.index().pkAttribute()).s();
        }

        String sortKey() {
            return values.get(entry.index().skAttribute()).s();
        }
    }

    private record Slot(Key item, Index index) {
    }

    private final Map<Slot, Expected> pending = new ConcurrentHashMap<>();
    private final AtomicLong written = new AtomicLong();
    private final Function<Expected, Uni<Optional<Map<String, AttributeValue>>>> indexRead;
    private final Function<Key, Uni<Optional<Map<String, AttributeValue>>>> tableRead;
    private final Duration limit;
    private final Counter unseen;
    private CompletableFuture<Void> look;

    /**
     * @param indexRead the entry of the expected item as an index read shows it (empty when it does not)
     * @param tableRead the item as the table holds it now (a strongly consistent read)
     * @param limit how long an entry is awaited at most; zero waits for none
     */
    IndexVisibility(Function<Expected, Uni<Optional<Map<String, AttributeValue>>>> indexRead,
            Function<Key, Uni<Optional<Map<String, AttributeValue>>>> tableRead, Duration limit,
            MeterRegistry registry) {
        this.indexRead = indexRead;
        this.tableRead = tableRead;
        this.limit = limit;
        this.unseen = Counter.builder(UNSEEN).description("GSI entries the projector stopped waiting for after "
                + "cabinet.table.index-wait without an index read showing them").register(registry);
        Gauge.builder("cabinet.index.entries.pending", pending, Map::size).description("GSI entries written that no "
                + "index read has shown yet; positions after them are not yet recorded as applied").register(registry);
    }

    /**
     * Whether writes of the item at this key must answer the item as written: its type has GSI entries, and entries
     * are awaited at all.
     */
    boolean follows(Key key) {
        return !limit.isZero() && indexed(key);
    }

    /** Whether an item at this key has GSI entries. */
    static boolean indexed(Key key) {
        for (Pattern[] keys : INDEXED_KEYS) {
            if (keys[0].matcher(key.pk()).matches() && keys[1].matcher(key.sk()).matches()) {
                return true;
            }
        }
        return false;
    }

    /** Notes the entries the item, as a write left it (whole), has in its type's GSIs. */
    void wrote(Map<String, AttributeValue> item) {
        AttributeValue typeName = item.get(KeyPlan.TYPE);
        ItemType type = typeName == null ? null : INDEXED.get(typeName.s());
        if (type == null || limit.isZero()) {
            return;
        }
        Key key = Key.of(item);
        for (IndexEntry entry : type.indexEntries()) {
            Optional<Map<String, AttributeValue>> values = entryOf(item, entry);
            Slot slot = new Slot(key, entry.index());
            if (values.isEmpty()) {
                pending.remove(slot);
                continue;
            }
            Expected expected = new Expected(entry, key, values.get(), written.incrementAndGet(), System.nanoTime());
            // The first sequence stays: a position recorded after the first write waits for the newest version.
            pending.merge(slot, expected, (before, now) -> new Expected(entry, key, now.values(), before.sequence(),
                    before.sinceNanos()));
        }
    }

    /** The item is gone: its entries are no longer awaited. */
    void deleted(Key item) {
        if (!pending.isEmpty()) {
            pending.keySet().removeIf(slot -> slot.item().equals(item));
        }
    }

    /** Completes once every entry noted before this call is visible (or given up); at once when there are none. */
    Uni<Void> settled() {
        long upTo = written.get();
        return Uni.createFrom().deferred(() -> awaitWhile(() -> waitsFor(upTo), FIRST_PAUSE));
    }

    /**
     * Completes once no entry of these items awaits an index read that shows it (or is given up); at once when none
     * does. What other items' entries await is not waited for.
     */
    Uni<Void> settled(Collection<Key> items) {
        Set<Key> of = Set.copyOf(items);
        return Uni.createFrom().deferred(() -> awaitWhile(() -> waitsForAny(of), FIRST_PAUSE));
    }

    /** Looks at the pending entries, pausing longer each time, while {@code waiting} says an awaited one is there. */
    private Uni<Void> awaitWhile(BooleanSupplier waiting, Duration pause) {
        if (!waiting.getAsBoolean()) {
            return Uni.createFrom().voidItem();
        }
        Duration next = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        return lookOnce().chain(() -> waiting.getAsBoolean() ? Uni.createFrom().voidItem().onItem().delayIt().by(pause)
                .chain(() -> awaitWhile(waiting, next)) : Uni.createFrom().voidItem());
    }

    private boolean waitsForAny(Set<Key> items) {
        for (Slot slot : pending.keySet()) {
            if (items.contains(slot.item())) {
                return true;
            }
        }
        return false;
    }

    private boolean waitsFor(long upTo) {
        for (Expected expected : pending.values()) {
            if (expected.sequence() <= upTo) {
                return true;
            }
        }
        return false;
    }

    /** One look at every pending entry, shared by whoever waits meanwhile. */
    private synchronized Uni<Void> lookOnce() {
        if (look == null || look.isDone()) {
            List<Expected> now = List.copyOf(pending.values());
            look = Multi.createFrom().iterable(now)
                    .onItem().transformToUni(this::check).merge(16)
                    .collect().last().replaceWithVoid()
                    // A look that fails (the store did not answer) is only a look: the next one asks again.
                    .onFailure().recoverWithNull()
                    .subscribeAsCompletionStage();
        }
        CompletableFuture<Void> shared = look;
        return Uni.createFrom().completionStage(() -> shared);
    }

    private Uni<Void> check(Expected expected) {
        Slot slot = new Slot(expected.item(), expected.entry().index());
        long waited = System.nanoTime() - expected.sinceNanos();
        if (waited > limit.toNanos()) {
            if (pending.remove(slot, expected)) {
                unseen.increment();
                LOG.warnf("%s still does not show %s of %s after %d ms; not waiting for it any longer "
                        + "(cabinet.table.index-wait)", expected.entry().index().indexName(), expected.values(),
                        expected.item(), limit.toMillis());
            }
            return Uni.createFrom().voidItem();
        }
        return indexRead.apply(expected).chain(shown -> {
            if (shown.isPresent() && shows(shown.get(), expected)) {
                pending.remove(slot, expected);
                return Uni.createFrom().voidItem();
            }
            if (waited < RECHECK_ITEM_AFTER.toNanos()) {
                return Uni.createFrom().voidItem();
            }
            return tableRead.apply(expected.item()).invoke(item -> {
                Optional<Map<String, AttributeValue>> values = item.flatMap(now -> entryOf(now, expected.entry()));
                if (values.isEmpty()) {
                    pending.remove(slot, expected);
                } else if (!values.get().equals(expected.values())) {
                    pending.replace(slot, expected, new Expected(expected.entry(), expected.item(), values.get(),
                            expected.sequence(), expected.sinceNanos()));
                }
            }).replaceWithVoid();
        });
    }

    /** The item's keys and what the entry projects of it, if the item has the entry's keys (a sparse one may not). */
    private static Optional<Map<String, AttributeValue>> entryOf(Map<String, AttributeValue> item, IndexEntry entry) {
        Index index = entry.index();
        if (!item.containsKey(index.pkAttribute()) || !item.containsKey(index.skAttribute())) {
            return Optional.empty();
        }
        Map<String, AttributeValue> values = new HashMap<>();
        for (String name : List.of(Key.PK, Key.SK, index.pkAttribute(), index.skAttribute())) {
            values.put(name, item.get(name));
        }
        for (String name : entry.projected()) {
            if (item.containsKey(name)) {
                values.put(name, item.get(name));
            }
        }
        return Optional.of(values);
    }

    /** Whether the entry shows the expected values, and none of the projected attributes the item no longer has. */
    private static boolean shows(Map<String, AttributeValue> shown, Expected expected) {
        for (Map.Entry<String, AttributeValue> value : expected.values().entrySet()) {
            if (!value.getValue().equals(shown.get(value.getKey()))) {
                return false;
            }
        }
        for (String name : expected.entry().projected()) {
            if (!expected.values().containsKey(name) && shown.containsKey(name)) {
                return false;
            }
        }
        return true;
    }
}
