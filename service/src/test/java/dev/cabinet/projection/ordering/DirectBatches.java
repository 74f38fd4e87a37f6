package dev.cabinet.projection.ordering;

import org.apache.kafka.clients.consumer.ConsumerRecords;

import io.smallrye.mutiny.Uni;

/**
 * Hands a batch to the engine directly, with no consumer (its own sequence, no owner epoch), as the engine tests of
 * other packages do; the engine's {@code project} is not part of its public API.
 */
public final class DirectBatches {

    private DirectBatches() {
    }

    public static Uni<Void> project(ProjectionEngine engine, ConsumerRecords<String, byte[]> batch) {
        return engine.project(batch);
    }
}
