package dev.cabinet.rebuild;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventLogConfig;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.OperatorStore;

/** How far a candidate table's projector is, partition by partition, against the projector of the live table. */
@ApplicationScoped
class RebuildProgress {

    private static final Duration STORE_WAIT = Duration.ofSeconds(30);

    private final OperatorStore store;
    private final ActiveTable activeTable;
    private final int partitions;

    RebuildProgress(OperatorStore store, ActiveTable activeTable, EventLogConfig events) {
        this.store = store;
        this.activeTable = activeTable;
        this.partitions = events.partitions();
    }

    /** One partition: the last offset applied to the live table and to the candidate (-1: nothing yet). */
    record PartitionProgress(String topic, int partition, long live, long candidate) {
        boolean caughtUp() {
            return candidate >= live;
        }
    }

    /** The candidate has caught up when it has applied, on every partition, at least what the live projector has. */
    record Status(String candidate, String active, boolean caughtUp, List<PartitionProgress> partitions) {
    }

    Status of(String candidate) {
        String live = activeTable.lookUp().await().atMost(STORE_WAIT);
        List<PartitionProgress> progress = new ArrayList<>();
        for (String topic : Topics.ALL) {
            for (int partition = 0; partition < partitions; partition++) {
                progress.add(new PartitionProgress(topic, partition, applied(live, topic, partition),
                        applied(candidate, topic, partition)));
            }
        }
        return new Status(candidate, live, progress.stream().allMatch(PartitionProgress::caughtUp), progress);
    }

    /** When a projector last recorded progress in the table, on any partition; empty if none ever did. */
    Optional<Instant> lastApplied(String table) {
        Optional<Instant> last = Optional.empty();
        for (String topic : Topics.ALL) {
            for (int partition = 0; partition < partitions; partition++) {
                Optional<Instant> at = store.read(table, ProjectionProgress.key(topic, partition))
                        .map(item -> Items.string(item, Attributes.APPLIED_AT)).filter(Objects::nonNull)
                        .map(Instant::parse);
                if (at.isPresent() && (last.isEmpty() || at.get().isAfter(last.get()))) {
                    last = at;
                }
            }
        }
        return last;
    }

    private long applied(String table, String topic, int partition) {
        return store.read(table, ProjectionProgress.key(topic, partition))
                .filter(item -> item.containsKey(Attributes.APPLIED_OFFSET))
                .map(item -> Long.parseLong(item.get(Attributes.APPLIED_OFFSET).n()))
                .orElse(-1L);
    }
}
