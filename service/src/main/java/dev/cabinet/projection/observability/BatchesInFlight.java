package dev.cabinet.projection.observability;

import java.time.Instant;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * The batches the engine has admitted and not finished (or that failed), as the lag and the readiness check see them:
 * per partition, the oldest one (the engine's {@code BatchSequence}s keep them; nothing else tracks batches in flight).
 */
public interface BatchesInFlight {

    /** A partition's batch in flight: when the engine admitted it, and its oldest event's log time. */
    record Batch(Instant started, Instant oldestEvent) {
    }

    /** Each partition's oldest batch in flight, for the partitions that have one. */
    Map<TopicPartition, Batch> oldestByPartition();
}
