package dev.cabinet.projection.failure;

import java.util.Collection;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import dev.cabinet.projection.ordering.PartitionsAssigned;
import dev.cabinet.projection.ordering.ProjectionEngine;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;

/**
 * Partitions just assigned may hold keys that their previous owner parked: the engine reads the parked keys again
 * before its next batch rather than trusting its periodic read ({@code consumer-rebalance-listener.name} of the
 * projector's channel names this bean); and keys that an older projector parked for an event type it did not know may
 * now be applied ({@link PartitionsAssigned}).
 */
@ApplicationScoped
@Identifier(ParkedOnAssignment.NAME)
public class ParkedOnAssignment implements KafkaConsumerRebalanceListener {

    public static final String NAME = "cabinet-projector";

    private final ProjectionEngine engine;
    private final Event<PartitionsAssigned> assigned;

    ParkedOnAssignment(ProjectionEngine engine, Event<PartitionsAssigned> assigned) {
        this.engine = engine;
        this.assigned = assigned;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            engine.partitionsAssigned();
            assigned.fireAsync(new PartitionsAssigned());
        }
    }
}
