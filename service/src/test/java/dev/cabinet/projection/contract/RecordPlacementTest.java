package dev.cabinet.projection.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.KeyPartitions;
import dev.cabinet.support.ForeignProducer;

/** Which records sit where their key belongs, from the record and the topic's partition count alone. */
class RecordPlacementTest {

    @Test
    void aKeyOnJavasPartitionIsInPlaceAndOnCrc32sWhereTheyDifferIsNot() {
        String key = firstKeyWherePartitionersDiffer(6);
        int java = KeyPartitions.of(key, 6);
        int crc32 = ForeignProducer.crc32Partition(key, 6);

        assertEquals(Optional.empty(), RecordPlacement.misplacement(record(key, java), 6));
        Optional<String> reason = RecordPlacement.misplacement(record(key, crc32), 6);
        assertTrue(reason.orElseThrow().startsWith("record on partition " + crc32 + " of cabinet.users, but its key "
                + key + " belongs on partition " + java), reason.get());
    }

    private static String firstKeyWherePartitionersDiffer(int partitions) {
        for (int i = 0;; i++) {
            String key = "k" + i;
            if (KeyPartitions.of(key, partitions) != ForeignProducer.crc32Partition(key, partitions)) {
                return key;
            }
        }
    }

    private static ConsumerRecord<String, byte[]> record(String key, int partition) {
        return new ConsumerRecord<>("cabinet.users", partition, 0L, key, new byte[0]);
    }
}
