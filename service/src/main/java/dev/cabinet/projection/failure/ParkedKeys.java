package dev.cabinet.projection.failure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.projection.contract.CloudEvent;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.role.Role;
import dev.cabinet.role.RoleConfig;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.Walk;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The parked keys (patterns 21 and 22): a key whose event could not be applied parks, and its later events wait
 * behind it, in log order, until an operator retries or discards them. The records stay in their topic; the table holds
 * where they are and why they wait. Every write is conditional, so a redelivered batch parks nothing twice, and an
 * event parked behind a key that an operator released meanwhile is applied instead.
 */
@ApplicationScoped
public class ParkedKeys {

    public static final String PARKED = "parked";
    public static final String DISCARDED = "discarded";
    /** Counted per topic: records dead-lettered (each parks its key), and records parked behind an earlier one. */
    static final String DEAD_LETTERED = "cabinet.projection.dead-lettered";
    static final String PARKED_BEHIND = "cabinet.projection.parked";

    private static final Logger LOG = Logger.getLogger(ParkedKeys.class);

    private final TableWriter store;
    private final Walk walk;
    private final MeterRegistry registry;
    private final Role role;
    private final List<String> topics;

    ParkedKeys(TableWriter store, ProjectionConfig config, MeterRegistry registry,
            RoleConfig role,
            @ConfigProperty(name = "mp.messaging.incoming.events.topics") List<String> topics) {
        this.store = store;
        this.walk = config.fanOutWalk();
        this.registry = registry;
        this.role = role.role();
        this.topics = topics;
    }

    /**
     * A projector's counters exist from the start, at zero: Prometheus sees no increase in a series that first
     * appears at 1, so the alert on dead letters (deploy/k8s) would miss the first one.
     */
    void registerCounters(@Observes StartupEvent event) {
        if (role.projects()) {
            for (String topic : topics) {
                registry.counter(DEAD_LETTERED, "topic", topic);
                registry.counter(PARKED_BEHIND, "topic", topic);
            }
        }
    }

    /** The ids of every parked key; the engine reads them about once a second (an operator's act shows). */
    public Uni<Set<String>> parkedIds() {
        return keys().map(items -> items.stream().map(item -> Items.string(item, Attributes.PARKED_KEY_ID))
                .collect(Collectors.toSet()));
    }

    /** The parked keys, each as its item (pattern 21). */
    public Uni<List<Map<String, AttributeValue>>> keys() {
        return collect(keysQuery());
    }

    public Uni<Optional<Map<String, AttributeValue>>> key(String parkedKeyId) {
        return store.read(KeyPlan.PARKED_KEY.key(parkedKeyId));
    }

    /** Whether a parked key's item says its events from the first parked to the last parked one span the offset. */
    public static boolean spans(Map<String, AttributeValue> key, long offset) {
        return Items.has(key, Attributes.FIRST_OFFSET) && Items.number(key, Attributes.FIRST_OFFSET) <= offset
                && Items.has(key, Attributes.LAST_PARKED_OFFSET)
                && Items.number(key, Attributes.LAST_PARKED_OFFSET) >= offset;
    }

    /** Where a record parked at this position is marked by its position alone (pattern 26). */
    public static Key positionKey(String topic, int partition, long offset) {
        return KeyPlan.PARKED_POSITION.key(Topics.keyId(topic), partition, offset);
    }

    /** A parked key's events, oldest first (pattern 22). */
    public Uni<List<Map<String, AttributeValue>>> events(String parkedKeyId) {
        return collect(KeyQuery.of(Index.TABLE, KeyPlan.PARKED_EVENT.partition(parkedKeyId),
                SortKeyCondition.beginsWith(KeyPlan.PARKED_EVENT.sk().prefix()), false))
                .map(items -> {
                    items.sort(Comparator.comparing(item -> Items.string(item, Key.SK)));
                    return items;
                });
    }

    /** Parks the key of a record that cannot apply, with the reason, behind which its later events will wait. */
    public Uni<Void> park(ConsumerRecord<String, byte[]> record, String reason) {
        return park(record, reason, LogKey.of(record));
    }

    /** As {@link #park(ConsumerRecord, String)}, under the given key ({@link LogKey#misplaced}). */
    public Uni<Void> park(ConsumerRecord<String, byte[]> record, String reason, LogKey logKey) {
        LOG.errorf("Parked %s key %s at %s-%d@%d: %s", logKey.id(), record.key(), record.topic(), record.partition(),
                record.offset(), reason);
        registry.counter(DEAD_LETTERED, "topic", record.topic()).increment();
        ItemUpdate key = ItemUpdate.of(KeyPlan.PARKED_KEY.key(logKey.id()), KeyPlan.PARKED_KEY)
                .setIfAbsent(Attributes.PARKED_KEY_ID, logKey.id())
                .setIfAbsent(Attributes.TOPIC, record.topic())
                .setIfAbsent(Attributes.PARTITION, record.partition())
                .setIfAbsent(Attributes.FIRST_OFFSET, record.offset())
                .setIfAbsent(Attributes.REASON, bounded(reason))
                .setIfAbsent(Attributes.PARKED_AT, Timestamps.format(Instant.now()))
                .guardedBy(Attributes.LAST_PARKED_OFFSET, record.offset());
        if (record.key() != null) {
            key.setIfAbsent(Attributes.RECORD_KEY, record.key());
        }
        eventId(record).ifPresent(id -> key.setIfAbsent(Attributes.EVENT_ID, id));
        eventType(record).ifPresent(type -> key.setIfAbsent(Attributes.EVENT_TYPE, type));
        // The key item goes last: until it is written a redelivery parks the record again with the same reason, while
        // once it exists a redelivery only parks behind it, so the event and its outcome must already say why.
        return Uni.combine().all().unis(store.update(event(record, logKey, reason)),
                        store.update(position(record, logKey))).discardItems()
                .chain(() -> markParked(record, reason))
                .chain(() -> store.update(key))
                .replaceWithVoid();
    }

    /** What became of a record {@link #parkBehind} was asked to park. */
    public enum Behind {
        /** It waits behind its key's earlier events. */
        PARKED,
        /** The key was released before the record was parked behind it: nothing of the park stays; apply it. */
        TO_APPLY,
        /**
         * An operator's discard walked the record in the instant it was parked, then released the key: nothing of the
         * park stays, and it is not applied (a discarded event never is).
         */
        DISCARDED
    }

    /**
     * Parks a record behind its key's earlier parked event, unless an operator released the key since the batch began
     * ({@link Behind}). Its outcome says {@code parked} before the key's update, as {@link #park} writes it: an
     * operator's retry that walks the record meanwhile can then release the key only once that outcome is written, and
     * clears it again when it has ({@link #clearOutcome}); a discard that walks it leaves its outcome
     * {@code discarded}, which tells a released key from a discard's walk (even for an attempt made again after a
     * transient error, which writes the parked event again, or by a second owner of the partition). A record without
     * an event id has no outcome, and is applied.
     */
    public Uni<Behind> parkBehind(ConsumerRecord<String, byte[]> record) {
        LogKey logKey = LogKey.of(record);
        registry.counter(PARKED_BEHIND, "topic", record.topic()).increment();
        String reason = "waits behind an earlier event of its key that could not be applied";
        ItemUpdate key = ItemUpdate.of(KeyPlan.PARKED_KEY.key(logKey.id()), KeyPlan.PARKED_KEY)
                .guardedBy(Attributes.LAST_PARKED_OFFSET, record.offset())
                .onlyIfExists();
        Optional<String> eventId = eventId(record);
        return Uni.combine().all().unis(store.update(event(record, logKey, reason)),
                        store.update(position(record, logKey))).discardItems()
                .chain(() -> markParked(record, reason))
                .chain(() -> store.update(key))
                .chain(updated -> updated ? Uni.createFrom().item(true) : store.read(key.key()).map(Optional::isPresent))
                .chain(stillParked -> stillParked ? Uni.createFrom().item(Behind.PARKED)
                        : discarded(eventId).chain(discarded -> release(logKey.id(), record.topic(),
                                record.partition(), record.offset())
                                .chain(() -> clearOutcome(eventId.orElse(null)))
                                .replaceWith(discarded ? Behind.DISCARDED : Behind.TO_APPLY)));
    }

    /** Whether an operator discarded the event (a consistent read of its outcome); never for an event without id. */
    private Uni<Boolean> discarded(Optional<String> eventId) {
        return eventId.isEmpty() ? Uni.createFrom().item(false)
                : store.read(KeyPlan.EVENT_OUTCOME.key(eventId.get()))
                        .map(outcome -> outcome.map(item -> DISCARDED.equals(Items.string(item, Attributes.STATUS)))
                                .orElse(false));
    }

    /**
     * Leases the key to one retry or discard ({@code holder}) until {@code lease} has passed: two walks of one key's
     * events at once could apply them twice or out of order. False while another holds an unexpired lease, or when
     * the key is gone; the holder renews it with {@link #renew} and ends it with {@link #endLease} (an unpark deletes
     * the key, lease and all).
     */
    public Uni<Boolean> lease(String parkedKeyId, String holder, Duration lease) {
        long now = System.currentTimeMillis();
        return store.update(ItemUpdate.of(KeyPlan.PARKED_KEY.key(parkedKeyId), KeyPlan.PARKED_KEY)
                .set(Attributes.RECOVERED_BY, holder)
                .set(Attributes.RECOVERING_UNTIL, now + lease.toMillis())
                .onlyIfExists()
                .onlyIfBelow(Attributes.RECOVERING_UNTIL, now));
    }

    /** Extends the holder's lease; false if it lost it (it expired and another took the key) or the key is gone. */
    public Uni<Boolean> renew(String parkedKeyId, String holder, Duration lease) {
        return store.update(ItemUpdate.of(KeyPlan.PARKED_KEY.key(parkedKeyId), KeyPlan.PARKED_KEY)
                .set(Attributes.RECOVERING_UNTIL, System.currentTimeMillis() + lease.toMillis())
                .onlyIfEquals(Attributes.RECOVERED_BY, holder));
    }

    /** Ends the holder's lease on a key that stays parked. */
    public Uni<Void> endLease(String parkedKeyId, String holder) {
        return store.update(ItemUpdate.of(KeyPlan.PARKED_KEY.key(parkedKeyId), KeyPlan.PARKED_KEY)
                .set(Attributes.RECOVERED_BY, null)
                .set(Attributes.RECOVERING_UNTIL, null)
                .onlyIfEquals(Attributes.RECOVERED_BY, holder)).replaceWithVoid();
    }

    /** Forgets one parked event, once it was applied or discarded: its position, then the event. */
    public Uni<Void> release(String parkedKeyId, String topic, int partition, long offset) {
        return store.delete(positionKey(topic, partition, offset))
                .chain(() -> store.delete(KeyPlan.PARKED_EVENT.key(parkedKeyId, offset)));
    }

    /**
     * Unparks the key if no event was parked behind it since {@code lastParkedOffset} was read; {@code false} means
     * more came, and the caller goes on with them.
     */
    public Uni<Boolean> unpark(String parkedKeyId, long lastParkedOffset) {
        return store.deleteIfEquals(KeyPlan.PARKED_KEY.key(parkedKeyId), Attributes.LAST_PARKED_OFFSET, lastParkedOffset);
    }

    /** Records that a retried event still cannot apply: the key stays parked with the new reason. */
    public Uni<Void> stillFails(String parkedKeyId, long offset, String reason) {
        return store.update(ItemUpdate.of(KeyPlan.PARKED_KEY.key(parkedKeyId), KeyPlan.PARKED_KEY)
                        .set(Attributes.REASON, bounded(reason)).onlyIfExists())
                .chain(() -> store.update(ItemUpdate.of(KeyPlan.PARKED_EVENT.key(parkedKeyId, offset),
                        KeyPlan.PARKED_EVENT).set(Attributes.REASON, bounded(reason)).onlyIfExists()))
                .replaceWithVoid();
    }

    /** Clears a parked event's outcome before it is applied again (a rejection may then take its place). */
    public Uni<Void> clearOutcome(String eventId) {
        return eventId == null ? Uni.createFrom().voidItem()
                : store.deleteIfEquals(KeyPlan.EVENT_OUTCOME.key(eventId), Attributes.STATUS, PARKED).replaceWithVoid();
    }

    /** Records that an operator discarded a parked event: its command's outcome says so from now on. */
    public Uni<Void> discardOutcome(String eventId, String reason) {
        return eventId == null ? Uni.createFrom().voidItem()
                : store.update(ItemUpdate.of(KeyPlan.EVENT_OUTCOME.key(eventId), KeyPlan.EVENT_OUTCOME)
                        .set(Attributes.STATUS, DISCARDED)
                        .set(Attributes.REASON, bounded(reason))
                        .set(Attributes.DECIDED_AT, Timestamps.format(Instant.now()))
                        .setIfAbsent(Attributes.EVENT_ID, eventId)
                        // Written before the projector's parked mark (which then leaves the status as it is), too.
                        .onlyIfLacksOrEquals(Attributes.STATUS, PARKED)).replaceWithVoid();
    }

    /** The record's position marked parked, for a read that names the position alone (a Consistency-Token). */
    private static ItemUpdate position(ConsumerRecord<String, byte[]> record, LogKey logKey) {
        return ItemUpdate.of(positionKey(record.topic(), record.partition(), record.offset()), KeyPlan.PARKED_POSITION)
                .set(Attributes.PARKED_KEY_ID, logKey.id());
    }

    private ItemUpdate event(ConsumerRecord<String, byte[]> record, LogKey logKey, String reason) {
        ItemUpdate event = ItemUpdate.of(KeyPlan.PARKED_EVENT.key(logKey.id(), record.offset()),
                KeyPlan.PARKED_EVENT)
                .setIfAbsent(Attributes.TOPIC, record.topic())
                .setIfAbsent(Attributes.PARTITION, record.partition())
                .setIfAbsent(Attributes.OFFSET, record.offset())
                .setIfAbsent(Attributes.REASON, bounded(reason))
                .setIfAbsent(Attributes.PARKED_AT, Timestamps.format(Instant.now()));
        eventId(record).ifPresent(id -> event.setIfAbsent(Attributes.EVENT_ID, id));
        eventType(record).ifPresent(type -> event.setIfAbsent(Attributes.EVENT_TYPE, type));
        return event;
    }

    /** The command's outcome says {@code parked}, with the reason, for as long as the event waits (first record wins). */
    public Uni<Void> markParked(ConsumerRecord<String, byte[]> record, String reason) {
        Optional<String> eventId = eventId(record);
        if (eventId.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        ItemUpdate outcome = ItemUpdate.of(KeyPlan.EVENT_OUTCOME.key(eventId.get()), KeyPlan.EVENT_OUTCOME)
                .setIfAbsent(Attributes.EVENT_ID, eventId.get())
                .setIfAbsent(Attributes.STATUS, PARKED)
                .setIfAbsent(Attributes.REASON, bounded(reason))
                .setIfAbsent(Attributes.POSITION, new LogPosition(record.topic(), record.partition(), record.offset()).token())
                .setIfAbsent(Attributes.DECIDED_AT, Timestamps.format(Instant.now()));
        eventType(record).ifPresent(type -> outcome.setIfAbsent(Attributes.EVENT_TYPE, type));
        return store.update(outcome).replaceWithVoid();
    }

    private Uni<List<Map<String, AttributeValue>>> collect(KeyQuery query) {
        List<Map<String, AttributeValue>> items = Collections.synchronizedList(new ArrayList<>());
        return store.forEach(query, walk, item -> {
            items.add(item);
            return Uni.createFrom().voidItem();
        }).map(walked -> new ArrayList<>(items));
    }

    private static KeyQuery keysQuery() {
        return KeyQuery.of(Index.TABLE, KeyPlan.PARKED_KEY.partition(),
                SortKeyCondition.beginsWith(KeyPlan.PARKED_KEY.sk().prefix()), false);
    }

    /** The record's event id, in either content mode, if it can be a key (a foreign producer's may not). */
    static Optional<String> eventId(ConsumerRecord<String, byte[]> record) {
        return CloudEvent.attribute(record, "id").filter(Ids::isValid);
    }

    private static String bounded(String reason) {
        return UnappliableEventException.bounded(reason);
    }

    private static Optional<String> eventType(ConsumerRecord<String, byte[]> record) {
        return CloudEvent.attribute(record, "type").filter(t -> t.length() <= 200);
    }
}
