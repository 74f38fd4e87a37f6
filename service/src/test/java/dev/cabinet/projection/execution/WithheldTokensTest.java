package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Once a partition is being handed over, no count token of its events is released here until it is assigned here
 * again: batches of it may still run beside its next owner, and a token this instance removed while that owner's
 * attempt had read the marker unflagged would let it count again. Other partitions' tokens are released as before.
 */
@QuarkusTest
class WithheldTokensTest {

    /** A partition no consumer of the suite reads (the dead letters'): withholding it takes nothing from them. */
    private static final TopicPartition HANDED_OVER = new TopicPartition("cabinet.dead-letters", 0);
    private static final TopicPartition KEPT = new TopicPartition("cabinet.dead-letters", 1);

    @Inject
    CountTokenRelease tokens;

    @Inject
    TableWriter store;

    @Test
    void theTokensOfAPartitionHandedOverStayPendingUntilItIsAssignedAgain() throws Exception {
        Key counter = new Key("TEST#" + Ids.newId(), "PROFILE");
        String handedOver = Ids.newId();
        String kept = Ids.newId();
        store.update(ItemUpdate.of(counter).increment("postCount", 2)
                .addToSet(TableWriter.PENDING_COUNTS, List.of(handedOver, kept))).await().indefinitely();

        tokens.withhold(List.of(HANDED_OVER));
        try {
            tokens.release(counter, handedOver, HANDED_OVER, null);
            tokens.release(counter, kept, KEPT, null);
            tokens.settled().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertEquals(List.of(handedOver), pending(counter), "only the partition handed over keeps its token");
        } finally {
            tokens.resume(List.of(HANDED_OVER));   // the suite's application goes on releasing either way
        }

        tokens.release(counter, handedOver, HANDED_OVER, null);
        tokens.settled().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertFalse(store.read(counter).await().indefinitely().orElseThrow().containsKey(TableWriter.PENDING_COUNTS));
    }

    private List<String> pending(Key counter) {
        return store.read(counter).await().indefinitely().orElseThrow().get(TableWriter.PENDING_COUNTS).ss();
    }
}
