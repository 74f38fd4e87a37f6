package dev.cabinet.projection.observability;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.smallrye.mutiny.Uni;

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
        return KeyPlan.PROJECTION_PROGRESS.key(topic.replace('.', '-'), partition);
    }

    /**
     * Records that the partition is applied up to {@code last}, every event before it too (only ever upwards), once the
     * GSI entries written so far show in index reads: "applied" then holds for the patterns that read an index too.
     */
    public Uni<Void> record(TopicPartition partition, long last) {
        return store.indexesShowWrites().chain(() -> store.update(appliedUpTo(partition, last))).replaceWithVoid();
    }

    /**
     * Raises the partition's owner epoch by one and answers it: called as the partition is assigned, so that each
     * ownership counts under an epoch no earlier ownership had ({@link dev.cabinet.table.OwnerFence}).
     */
    public Uni<Long> raiseOwnerEpoch(TopicPartition partition) {
        return store.updateAndGet(ItemUpdate.of(key(partition.topic(), partition.partition()),
                KeyPlan.PROJECTION_PROGRESS.name())
                .set(Attributes.TOPIC, partition.topic())
                .set(Attributes.PARTITION, partition.partition())
                .increment(Attributes.OWNER_EPOCH, 1))
                .map(now -> Items.number(now.orElseThrow(), Attributes.OWNER_EPOCH));
    }

    /** The partitions' owner epochs as the store holds them now (strongly consistent reads; 0: never raised). */
    public Uni<Map<TopicPartition, Long>> ownerEpochs(Collection<TopicPartition> partitions) {
        List<TopicPartition> asked = List.copyOf(partitions);
        return store.readAll(asked.stream().map(partition -> key(partition.topic(), partition.partition())).toList())
                .map(found -> {
                    Map<TopicPartition, Long> epochs = new HashMap<>();
                    for (int i = 0; i < asked.size(); i++) {
                        epochs.put(asked.get(i), found.get(i).filter(item -> item.containsKey(Attributes.OWNER_EPOCH))
                                .map(item -> Items.number(item, Attributes.OWNER_EPOCH)).orElse(0L));
                    }
                    return epochs;
                });
    }

    private static ItemUpdate appliedUpTo(TopicPartition partition, long last) {
        return ItemUpdate.of(key(partition.topic(), partition.partition()), KeyPlan.PROJECTION_PROGRESS.name())
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
