package dev.cabinet.projection.ordering;

import java.util.Collection;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;

/**
 * The projector's rebalance listener ({@code consumer-rebalance-listener.name} of its channel names this bean). A
 * partition revoked is handed over only once its batches in flight have finished
 * ({@link ProjectionEngine#handOver}, per consumer of this instance): its next owner starts from the committed offset,
 * and were this instance still applying the same events, two attempts of one count could both count. The group hands the partition on only after
 * this member rejoined, that is after this returns. Partitions assigned may hold keys that their previous owner parked:
 * the engine reads the parked keys again before its next batch, and keys that an older projector parked for an event
 * type it did not know may now be applied ({@link PartitionsAssigned}).
 */
@ApplicationScoped
@Identifier(PartitionHandover.NAME)
public class PartitionHandover implements KafkaConsumerRebalanceListener {

    public static final String NAME = "cabinet-projector";

    private static final Logger LOG = Logger.getLogger(PartitionHandover.class);

    private final ProjectionEngine engine;
    private final Event<PartitionsAssigned> assigned;
    private final ProjectionConfig config;
    private final KafkaClientService kafka;

    PartitionHandover(ProjectionEngine engine, Event<PartitionsAssigned> assigned, ProjectionConfig config,
            KafkaClientService kafka) {
        this.engine = engine;
        this.assigned = assigned;
        this.config = config;
        this.kafka = kafka;
    }

    /** The group's generation orders the owner epochs the assignment raises ({@link OwnerEpochs}). */
    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        assigned(channelOf(consumer), partitions, consumer.groupMetadata().generationId());
    }

    /**
     * Called on the consumer's polling thread, before it rejoins the group: waiting here holds the partitions. The
     * connector has already dropped the partitions' records it had fetched, and committed what was acknowledged (what
     * finishes now is applied again by the next owner, after this, which is idempotent). Partitions lost rather than
     * revoked (this member's session expired) come here too: the connector forwards them.
     */
    @Override
    public void onPartitionsRevoked(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        revoked(channelOf(consumer), partitions);
    }

    /** The channel's consumer has the partitions in the group's {@code generation} (negative: not known, no epoch). */
    void assigned(String channel, Collection<TopicPartition> partitions, int generation) {
        if (!partitions.isEmpty()) {
            engine.partitionsAssigned(channel, partitions, generation);
            assigned.fireAsync(new PartitionsAssigned());
        }
    }

    void revoked(String channel, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        try {
            if (engine.handOver(channel, partitions, config.handoverTimeout())) {
                LOG.infof("Rebalance: %d revoked partition(s) handed over after %d ms", partitions.size(),
                        (System.nanoTime() - started) / 1_000_000);
            } else {
                LOG.warnf("Rebalance: %d revoked partition(s) handed over after %d ms with batches still in flight; "
                        + "their count tokens stay pending, for the next owner's redo to release", partitions.size(),
                        (System.nanoTime() - started) / 1_000_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warnf("Rebalance: interrupted while handing over %d partition(s)", partitions.size());
        }
    }

    /** The projector's channel (events$1, ...) whose Kafka consumer this is; null when none is. */
    private String channelOf(Consumer<?, ?> consumer) {
        for (String channel : kafka.getConsumerChannels()) {
            if (ProjectionEngine.isEventsChannel(channel) && kafka.getConsumers(channel).stream()
                    .anyMatch(candidate -> candidate.unwrap() == consumer)) {
                return channel;
            }
        }
        return null;
    }
}
