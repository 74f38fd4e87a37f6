package dev.cabinet.projection.observability;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How far the projector has applied each partition of the log, kept in the table itself so that every API instance
 * can tell whether a position is applied, whichever instance projected it. Written as batches finish, in order, only
 * upwards (the engine coalesces the writes of batches that finish while one is in flight).
 */
@ApplicationScoped
public class ProjectionProgress {

    private final TableWriter store;
    private final ActiveTable activeTable;

    ProjectionProgress(TableWriter store, ActiveTable activeTable) {
        this.store = store;
        this.activeTable = activeTable;
    }

    public static Key key(String topic, int partition) {
        return KeyPlan.PROJECTION_PROGRESS.key(Topics.keyId(topic), partition);
    }

    /**
     * Records that the partition is applied up to {@code last}, every event before it too (only ever upwards), once the
     * GSI entries written so far show in index reads: "applied" then holds for the patterns that read an index too.
     */
    public Uni<Void> record(TopicPartition partition, long last) {
        return store.indexesShowWrites().chain(() -> store.update(appliedUpTo(partition, last))).replaceWithVoid();
    }

    /**
     * How old a stored raise of a later generation must be, at this assignment, to be a previous life of the group
     * rather than a newer owner's: far beyond a stall between the group's answer and the listener, or two clocks'
     * skew, and far below the week a group stays empty before its offsets expire and it starts again.
     */
    static final Duration PREVIOUS_LIFE_AFTER = Duration.ofHours(1);
    /** What {@link #raiseOwnerEpoch} answers when a newer generation of the group owns the partition. */
    public static final long STALE = 0;

    /**
     * Raises the partition's owner epoch by one for an assignment of consumer-group generation {@code generation}, made
     * at {@code assignedAt}, and answers it; or {@link #STALE} when the group has assigned the partition again since (a
     * raise that comes late, after a store outage or a stall, must not hand its member the newest epoch). The group's
     * generations order the raises: a raise is refused once a later generation's is stored. One of the same generation
     * raises again: a static member that restarts rejoins without a rebalance, and its new process must fence the old
     * one's counts. A stored generation above this one raised {@link #PREVIOUS_LIFE_AFTER} or longer before this
     * assignment is a previous life of the group (recreated after its offsets expired, or moved to another cluster,
     * where generations start again), and is replaced: the epoch itself goes on rising, so the counters' fences stay
     * below it. A group moved sooner than that after its last rebalance finds its partitions STALE until then.
     */
    public Uni<Long> raiseOwnerEpoch(TopicPartition partition, int generation, Instant assignedAt) {
        return store.updateAndGet(raise(partition, generation).onlyIfBelow(Attributes.OWNER_GENERATION,
                generation + 1L)).chain(raised -> raised.isPresent()
                        ? Uni.createFrom().item(Items.number(raised.get(), Attributes.OWNER_EPOCH))
                        : store.read(key(partition.topic(), partition.partition())).chain(found -> {
                            Map<String, AttributeValue> stored = found.orElseThrow();
                            long storedGeneration = Items.number(stored, Attributes.OWNER_GENERATION);
                            String raisedAt = Items.string(stored, Attributes.OWNER_RAISED_AT);
                            boolean previousLife = raisedAt == null
                                    || Timestamps.parse(raisedAt).isBefore(assignedAt.minus(PREVIOUS_LIFE_AFTER));
                            if (!previousLife) {
                                return Uni.createFrom().item(STALE);
                            }
                            // Another member of the new life may replace it first: then the generations decide.
                            return store.updateAndGet(raise(partition, generation)
                                    .onlyIfEquals(Attributes.OWNER_GENERATION, storedGeneration))
                                    .chain(replaced -> replaced.isPresent()
                                            ? Uni.createFrom().item(Items.number(replaced.get(),
                                                    Attributes.OWNER_EPOCH))
                                            : raiseOwnerEpoch(partition, generation, assignedAt));
                        }));
    }

    private static ItemUpdate raise(TopicPartition partition, int generation) {
        return ItemUpdate.of(key(partition.topic(), partition.partition()), KeyPlan.PROJECTION_PROGRESS)
                .set(Attributes.TOPIC, partition.topic())
                .set(Attributes.PARTITION, partition.partition())
                .increment(Attributes.OWNER_EPOCH, 1)
                .set(Attributes.OWNER_GENERATION, generation)
                .set(Attributes.OWNER_RAISED_AT, Timestamps.format(Instant.now()));
    }

    /** The partitions' owner epochs as the store holds them now (strongly consistent reads; 0: never raised). */
    public Uni<Map<TopicPartition, Long>> ownerEpochs(Collection<TopicPartition> partitions) {
        List<TopicPartition> asked = List.copyOf(partitions);
        return store.readAll(asked.stream().map(partition -> key(partition.topic(), partition.partition())).toList())
                .map(found -> {
                    Map<TopicPartition, Long> epochs = new HashMap<>();
                    for (int i = 0; i < asked.size(); i++) {
                        epochs.put(asked.get(i), found.get(i).map(item -> Items.number(item, Attributes.OWNER_EPOCH))
                                .orElse(0L));
                    }
                    return epochs;
                });
    }

    private static ItemUpdate appliedUpTo(TopicPartition partition, long last) {
        return ItemUpdate.of(key(partition.topic(), partition.partition()), KeyPlan.PROJECTION_PROGRESS)
                .set(Attributes.TOPIC, partition.topic())
                .set(Attributes.PARTITION, partition.partition())
                .set(Attributes.APPLIED_AT, Timestamps.format(Instant.now()))
                .guardedBy(Attributes.APPLIED_OFFSET, last);
    }

    /**
     * Whether the event at {@code position} has been applied to the table that answers reads (a strongly consistent
     * read): during a blue/green rebuild, that is the live table's projector's progress, not the candidate's.
     */
    public Uni<Boolean> isApplied(LogPosition position) {
        // An item with an owner epoch alone (raised on assignment) has applied nothing yet, not even offset 0.
        return store.read(activeTable.name(), key(position.topic(), position.partition())).map(item -> item
                .filter(progress -> progress.containsKey(Attributes.APPLIED_OFFSET))
                .map(progress -> Items.number(progress, Attributes.APPLIED_OFFSET) >= position.offset())
                .orElse(false));
    }
}
