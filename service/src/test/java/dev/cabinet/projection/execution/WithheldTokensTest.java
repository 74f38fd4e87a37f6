package dev.cabinet.projection.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;

/**
 * While batches handed over unfinished may be applied by their next owner too, no count token is released: a token
 * this instance removed while that owner's attempt had read the marker unflagged would let it count again.
 */
@QuarkusTest
class WithheldTokensTest {

    @Inject
    CountTokenRelease tokens;

    @Inject
    TableWriter store;

    @Test
    void tokensStayPendingWhileBatchesHandedOverUnfinishedRunAndAreReleasedAfterwards() throws Exception {
        Key counter = new Key("TEST#" + Ids.newId(), "PROFILE");
        String token = Ids.newId();
        store.update(ItemUpdate.of(counter).increment("postCount", 1).addToSet(TableWriter.PENDING_COUNTS, token))
                .await().indefinitely();
        CompletableFuture<Void> handedOverUnfinished = new CompletableFuture<>();

        tokens.withholdUntil(handedOverUnfinished);
        try {
            tokens.release(counter, token);
            tokens.settled().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertEquals(List.of(token), pending(counter), "released while the batches handed over still ran");
        } finally {
            handedOverUnfinished.complete(null);   // the suite's application goes on releasing either way
        }

        tokens.release(counter, token);
        tokens.settled().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertFalse(store.read(counter).await().indefinitely().orElseThrow().containsKey(TableWriter.PENDING_COUNTS));
    }

    private List<String> pending(Key counter) {
        return store.read(counter).await().indefinitely().orElseThrow().get(TableWriter.PENDING_COUNTS).ss();
    }
}
