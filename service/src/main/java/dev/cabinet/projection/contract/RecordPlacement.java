package dev.cabinet.projection.contract;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import dev.cabinet.eventlog.KeyPartitions;
import io.smallrye.mutiny.Uni;

/**
 * Notices a record that is not on the partition its key belongs on ({@link KeyPartitions}): another producer's, with
 * another partitioner. Its aggregate's other events are on another partition, applied concurrently with it and in no
 * order with it, so it is not applied: it goes to the dead letters and parks its key, for an operator to retry (which
 * applies it) or discard once the producer is fixed. A record without a key has no aggregate order to lose.
 */
@ApplicationScoped
public class RecordPlacement {

    private static final Logger LOG = Logger.getLogger(RecordPlacement.class);

    private final KeyPartitions partitions;

    RecordPlacement(KeyPartitions partitions) {
        this.partitions = partitions;
    }

    /** Why the record is not where its key belongs, or empty when it is (or that cannot be told now). */
    public Uni<Optional<String>> misplacement(ConsumerRecord<String, byte[]> record) {
        if (record.key() == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return partitions.count(record.topic())
                .chain(count -> KeyPartitions.of(record.key(), count) == record.partition()
                        ? Uni.createFrom().item(Optional.<String>empty())
                        // the topic may have grown since its count was asked: ask again before saying so
                        : partitions.countNow(record.topic()).map(now -> misplacement(record, now)))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("Could not tell whether %s-%d@%d is on its key's partition (%s): applying it",
                            record.topic(), record.partition(), record.offset(), failure.toString());
                    return Optional.empty();
                });
    }

    /** The reason, for a topic of {@code partitions} partitions (pure, for tests). */
    public static Optional<String> misplacement(ConsumerRecord<String, byte[]> record, int partitions) {
        int expected = KeyPartitions.of(record.key(), partitions);
        if (expected == record.partition()) {
            return Optional.empty();
        }
        return Optional.of("record on partition " + record.partition() + " of " + record.topic() + ", but its key "
                + record.key() + " belongs on partition " + expected + " (murmur2 of the key modulo " + partitions
                + " partitions, Java's default partitioner): its producer partitions otherwise (librdkafka's default "
                + "consistent_random hashes with CRC32; use murmur2_random), so its aggregate's events lose their order");
    }
}
