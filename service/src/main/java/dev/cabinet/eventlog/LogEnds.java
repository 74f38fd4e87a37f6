package dev.cabinet.eventlog;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import io.smallrye.mutiny.Uni;

/**
 * Where each partition of the log ends, so that a position no command could have been given (a forged or mistyped
 * consistency token) is refused at once instead of waited for. The ends this instance knows grow with every event it
 * appends ({@link #written}), and a position past them is asked of the broker: at most one question per partition is in
 * flight, and every caller that arrives meanwhile shares its answer, so forged tokens cost the broker little. A position
 * is never refused from an end that is merely old: a command's answer can come a moment after the last look at its
 * partition (issue 38: 12 tokens in 30, used at once, were refused when a look under a second old was trusted).
 */
@ApplicationScoped
public class LogEnds {

    private final LogAdmin admin;
    private final int partitions;
    /** The least end each partition is known to have: every offset below it holds an event. */
    private final Map<TopicPartition, Long> ends = new ConcurrentHashMap<>();
    /** The broker's answer each partition is waiting for, shared by its callers. */
    private final Map<TopicPartition, Uni<Long>> asking = new ConcurrentHashMap<>();

    LogEnds(LogAdmin admin, EventLogConfig config) {
        this.admin = admin;
        this.partitions = config.partitions();
    }

    /** An event this instance appended: the log holds it, and so every offset before it. */
    public void written(LogPosition position) {
        ends.merge(new TopicPartition(position.topic(), position.partition()), position.offset() + 1, Math::max);
    }

    /** Whether the log holds an event at this position (its partition exists and has reached that offset). */
    public Uni<Boolean> holds(LogPosition position) {
        if (position.partition() >= partitions) {
            return Uni.createFrom().item(false);   // the topics have cabinet.events.partitions partitions
        }
        TopicPartition partition = new TopicPartition(position.topic(), position.partition());
        Long known = ends.get(partition);
        if (known != null && position.offset() < known) {
            return Uni.createFrom().item(true);
        }
        return end(partition).map(end -> position.offset() < end);
    }

    /** The partition's end as the broker tells it now, one question at a time per partition. */
    private Uni<Long> end(TopicPartition partition) {
        return asking.computeIfAbsent(partition, p -> Uni.createFrom()
                .completionStage(() -> admin.admin().listOffsets(Map.of(p, OffsetSpec.latest())).partitionResult(p)
                        .toCompletionStage())
                .map(result -> ends.merge(p, result.offset(), Math::max))
                .onFailure().transform(EventLogUnavailableException::new)
                .onTermination().invoke(() -> asking.remove(p))
                .memoize().indefinitely());
    }
}
