package dev.cabinet.table;

import dev.cabinet.table.ItemUpdate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.launcher.StoreHooks;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.Key;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@QuarkusTest
class CountOnceTest {

    @Inject
    TableWriter store;

    @Test
    void aCounterChangeAppliedTwiceCountsOnce() {
        CounterChange change = newChange();
        countAndRelease(change);
        countAndRelease(change);
        assertEquals("1", counter(change).get("postCount").n());
        assertFalse(counter(change).containsKey(TableWriter.PENDING_COUNTS));
    }

    @Test
    void theChangeAnswersTheCounterItAppliedAndTheRepeatAnswersNothing() {
        CounterChange change = newChange();
        var markerNow = store.updateAndGet(ItemUpdate.of(change.marker()).set("seen", true)).await().indefinitely();

        var counted = store.countOnce(change, markerNow).await().indefinitely();
        assertEquals(List.of(change.token()), counted.orElseThrow().get(TableWriter.PENDING_COUNTS).ss(),
                "the token stays pending until it is released");
        release(change);
        var again = store.countOnce(change, store.read(change.marker()).await().indefinitely()).await().indefinitely();

        assertEquals("1", counted.orElseThrow().get("postCount").n());
        assertTrue(again.isEmpty(), "a change already counted changes nothing and answers nothing");
        assertEquals("1", counter(change).get("postCount").n());
        assertFalse(counter(change).containsKey(TableWriter.PENDING_COUNTS));
    }

    @Test
    void aCrashAfterTheCounterChangedIsRepairedWithoutCountingAgain() {
        CounterChange change = newChange();
        // What step 2 leaves behind when the process dies right after it: the change made, the token pending.
        store.update(ItemUpdate.of(change.counter()).increment("postCount", 1)
                .addToSet(TableWriter.PENDING_COUNTS, change.token())).await().indefinitely();

        countAndRelease(change);

        Map<String, AttributeValue> counter = counter(change);
        assertEquals("1", counter.get("postCount").n());
        assertFalse(counter.containsKey(TableWriter.PENDING_COUNTS));
        assertEquals("1", store.read(change.marker()).await().indefinitely().orElseThrow().get("counted").n());
    }

    /**
     * A flag is the version that counted its marker: one written late for an earlier version leaves a later one as it
     * is, and a flag of another version does not say that this change was counted.
     */
    @Test
    void aFlagWrittenLateNeverGoesBackAndOnlyItsOwnVersionCounted() {
        CounterChange earlier = newChange();
        CounterChange later = new CounterChange(earlier.counter(), earlier.counterType(), earlier.attribute(), 1,
                earlier.marker(), earlier.markerFlag(), Ids.newId(), 7);
        assertTrue(store.flagCounted(later).await().indefinitely());
        assertFalse(store.flagCounted(earlier).await().indefinitely(), "a flag never goes back to an earlier version");

        Map<String, AttributeValue> marker = store.read(earlier.marker()).await().indefinitely().orElseThrow();
        assertEquals("7", marker.get("counted").n());
        assertTrue(CounterChange.counted(marker, "counted", 7));
        assertFalse(CounterChange.counted(marker, "counted", 1), "another version's flag is not this change's");
        assertFalse(CounterChange.counted(marker, "counted", 9));
        assertTrue(CounterChange.counted(Map.of("counted", AttributeValue.fromBool(true)), "counted", 9),
                "a flag written as a yes, before flags were versions, still counts");
    }

    @Test
    void aMarkerThatWasNeverWrittenCountsNothing() {
        CounterChange change = newChange();
        CounterChange withoutMarker = new CounterChange(change.counter(), "UserProfile", "postCount", 1,
                new Key("TEST#" + Ids.newId(), "CHILD"), "counted", change.token(), 1);
        store.countOnce(withoutMarker).await().indefinitely();
        assertEquals(true, store.read(change.counter()).await().indefinitely().isEmpty());
    }

    @Test
    void tokensOfManyChangesAreReleasedInOneWrite() {
        CounterChange first = newChange();
        CounterChange second = changeOfAnotherChild(first);
        store.countOnce(first).await().indefinitely();
        store.countOnce(second).await().indefinitely();
        assertEquals(2, counter(first).get(TableWriter.PENDING_COUNTS).ss().size());

        store.releaseCountTokens(first.counter(), List.of(first.token(), second.token(), first.token()))
                .await().indefinitely();

        assertEquals("2", counter(first).get("postCount").n());
        assertFalse(counter(first).containsKey(TableWriter.PENDING_COUNTS), "an empty set is no attribute");
    }

    @Test
    void concurrentChangesToOneCounterCountEachOnceAndShareWrites() {
        CounterChange first = newChange();
        List<CounterChange> changes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            changes.add(changeOfAnotherChild(first));
        }
        // What a redo of a change cut short after step 2 finds: its token pending, the counter already changed.
        CounterChange cutShort = changes.get(7);
        store.update(ItemUpdate.of(first.counter()).increment("postCount", 1)
                .addToSet(TableWriter.PENDING_COUNTS, cutShort.token())).await().indefinitely();

        List<Optional<Map<String, AttributeValue>>> answers = Uni.join().all(changes.stream()
                .map(change -> store.countOnce(change)).toList()).andFailFast().await().indefinitely();
        store.releaseCountTokens(first.counter(), changes.stream().map(CounterChange::token).toList())
                .await().indefinitely();

        assertEquals("40", counter(first).get("postCount").n(), "each change once, the one cut short included");
        assertFalse(counter(first).containsKey(TableWriter.PENDING_COUNTS));
        assertTrue(answers.get(7).isEmpty(), "the change made before answers nothing");
        for (CounterChange change : changes) {
            assertEquals("1", store.read(change.marker()).await().indefinitely().orElseThrow().get("counted").n());
        }
    }

    /**
     * An event retried while its failed attempt's counter change still waits behind another change in flight: both
     * attempts' changes wait for the same write. They share a token, so together they must count once.
     */
    @Test
    void twoAttemptsOfOneChangeWaitingForTheSameWriteCountOnce() throws Exception {
        CounterChange inFlight = newChange();
        CounterChange retried = changeOfAnotherChild(inFlight);
        StoreHooks hooks = new StoreHooks(ConfigProvider.getConfig().getValue("quarkus.dynamodb.endpoint-override",
                String.class));
        // Below the store client's attempt timeout (3 s), which would resend.
        hooks.holdWrites(List.of(inFlight.counter().pk() + " " + inFlight.counter().sk()), Duration.ofMillis(1500));
        List<Optional<Map<String, AttributeValue>>> attempts;
        try {
            CompletableFuture<Optional<Map<String, AttributeValue>>> first = store.changeCounter(inFlight)
                    .subscribeAsCompletionStage();
            CompletableFuture<Optional<Map<String, AttributeValue>>> firstAttempt = store.changeCounter(retried)
                    .subscribeAsCompletionStage();
            CompletableFuture<Optional<Map<String, AttributeValue>>> secondAttempt = store.changeCounter(retried)
                    .subscribeAsCompletionStage();
            assertTrue(first.get(30, TimeUnit.SECONDS).isPresent());
            attempts = List.of(firstAttempt.get(30, TimeUnit.SECONDS), secondAttempt.get(30, TimeUnit.SECONDS));
        } finally {
            hooks.noHeldWrites();
        }

        assertEquals("2", counter(inFlight).get("postCount").n(), "the change in flight and the retried one, once");
        assertEquals(List.of(true, false), attempts.stream().map(Optional::isPresent).toList(),
                "the first attempt answers the counter as it left it; the second, made before, answers nothing");
    }

    /**
     * The stall the owner epochs close: an attempt reads its marker unflagged, then stalls past its session; the
     * partition's next owner counts, flags and releases; the stalled attempt wakes and sends its change, whose token
     * no longer stops it. Its older epoch does.
     */
    @Test
    void aChangeOfAnOlderOwnerIsRefusedOnceANewerOwnersChangeReachedTheCounter() {
        CounterChange unfenced = newChange();
        CounterChange stalled = fenced(unfenced, "cabinet.posts", 3, 1);
        CounterChange nextOwner = fenced(unfenced, "cabinet.posts", 3, 2);

        countAndRelease(nextOwner);
        assertThrows(FencedCountException.class, () -> store.changeCounter(stalled).await().indefinitely(),
                "the stalled attempt wakes to a change refused");
        assertEquals("1", counter(unfenced).get("postCount").n());
        assertEquals("2", counter(unfenced).get(nextOwner.fence().attribute()).n(), "the newer epoch stays");
        assertFalse(counter(unfenced).containsKey(TableWriter.PENDING_COUNTS));
    }

    /**
     * An older owner's change that lands first is the one that counts: the newer owner's change is refused by the
     * pending token, and the read that tells why finds it pending: made before, as without epochs.
     */
    @Test
    void aChangeOfANewerOwnerAfterAnOlderOnesMadeTheChangeFindsItMadeBefore() {
        CounterChange unfenced = newChange();
        CounterChange older = fenced(unfenced, "cabinet.posts", 3, 1);
        CounterChange newer = fenced(unfenced, "cabinet.posts", 3, 2);

        assertTrue(store.changeCounter(older).await().indefinitely().isPresent());
        var again = store.changeCounter(newer).await().indefinitely();

        assertTrue(again.isEmpty(), "made before: the token is pending");
        assertEquals("1", counter(unfenced).get("postCount").n());
        assertEquals(List.of(older.token()), counter(unfenced).get(TableWriter.PENDING_COUNTS).ss());
    }

    /**
     * The newer owner finds the older one's change made, flags and releases its token; a second attempt of the older
     * owner, stalled since it read the marker unflagged, then sends the change again. The newer owner's epoch, left on
     * the counter when its change was found made before, fences it: the event is counted once.
     */
    @Test
    void anOlderOwnersSecondAttemptAfterTheNewerOneReleasedTheTokenIsFenced() {
        CounterChange unfenced = newChange();
        CounterChange older = fenced(unfenced, "cabinet.posts", 3, 1);
        CounterChange newer = fenced(unfenced, "cabinet.posts", 3, 2);

        assertTrue(store.changeCounter(older).await().indefinitely().isPresent());
        assertTrue(store.changeCounter(newer).await().indefinitely().isEmpty(), "made before");
        assertTrue(store.flagCounted(newer).await().indefinitely());
        release(newer);

        assertThrows(FencedCountException.class, () -> store.changeCounter(older).await().indefinitely());
        assertEquals("1", counter(unfenced).get("postCount").n(), "counted once");
        AttributeValue pending = counter(unfenced).get(TableWriter.PENDING_COUNTS);
        assertTrue(pending == null || !pending.ss().contains(unfenced.token()), "no token left pending: " + pending);
    }

    /**
     * The next owner may count other events of the partition on the counter before it reaches this one: the stalled
     * attempt is refused all the same, and gives the event up without flagging its marker, so the next owner still
     * counts it when it gets there.
     */
    @Test
    void aStalledChangeFencedByAnotherEventsCountLeavesItsEventToTheNextOwner() {
        CounterChange first = newChange();
        CounterChange otherEvent = fenced(changeOfAnotherChild(first), "cabinet.posts", 3, 2);
        CounterChange stalled = fenced(changeOfAnotherChild(first), "cabinet.posts", 3, 1);
        CounterChange nextOwnersOwn = fenced(stalled, "cabinet.posts", 3, 2);

        countAndRelease(otherEvent);
        assertThrows(FencedCountException.class, () -> store.countOnce(stalled).await().indefinitely());
        assertFalse(store.read(stalled.marker()).await().indefinitely().orElseThrow().containsKey("counted"),
                "a fenced attempt leaves the marker unflagged");
        countAndRelease(nextOwnersOwn);

        assertEquals("2", counter(first).get("postCount").n(), "the other event and the stalled one, once each");
    }

    /** Epochs are per partition: a newer epoch of one partition fences nothing of another. */
    @Test
    void theEpochOfOnePartitionFencesNoChangeOfAnother() {
        CounterChange first = newChange();
        countAndRelease(fenced(changeOfAnotherChild(first), "cabinet.posts", 1, 9));
        countAndRelease(fenced(changeOfAnotherChild(first), "cabinet.posts", 2, 1));
        countAndRelease(fenced(changeOfAnotherChild(first), "cabinet.users", 1, 1));

        Map<String, AttributeValue> counter = counter(first);
        assertEquals("3", counter.get("postCount").n());
        assertEquals("9", counter.get("epoch#cabinet.posts#1").n());
        assertEquals("1", counter.get("epoch#cabinet.posts#2").n());
    }

    /**
     * Changes of one counter sent together share a write; two epochs of one partition among them (a reassignment to
     * this instance while its older batch still ran) are refused together once a between epoch counted there, and
     * then go alone: the older is fenced, the newer counts. A second attempt of the older one waiting for the same
     * write (an event retried while its first attempt's change still waited) is fenced too: answered "made before", it
     * would flag a marker that nobody counted, and the newer owner would then skip the count.
     */
    @Test
    void changesOfTwoEpochsWaitingForOneWriteGoAloneOnceRefusedAndARepeatOfTheFencedOneIsFenced() throws Exception {
        CounterChange first = newChange();
        countAndRelease(fenced(changeOfAnotherChild(first), "cabinet.posts", 4, 2));
        CounterChange inFlight = changeOfAnotherChild(first);
        CounterChange older = fenced(changeOfAnotherChild(first), "cabinet.posts", 4, 1);
        CounterChange newer = fenced(changeOfAnotherChild(first), "cabinet.posts", 4, 3);

        List<CompletableFuture<Optional<Map<String, AttributeValue>>>> answers = behindOneHeldWrite(inFlight,
                List.of(older, newer, older));

        assertFenced(answers.get(0));
        assertTrue(answers.get(1).get(30, TimeUnit.SECONDS).isPresent());
        assertFenced(answers.get(2));
        assertEquals("3", counter(first).get("postCount").n(), "the first, the one in flight and the newer");
        assertEquals("3", counter(first).get("epoch#cabinet.posts#4").n());
    }

    /**
     * The changes, sent while {@code inFlight}'s write to the same counter is held by the store (below the store
     * client's attempt timeout, 3 s, which would resend): they wait together for the next write.
     */
    private List<CompletableFuture<Optional<Map<String, AttributeValue>>>> behindOneHeldWrite(CounterChange inFlight,
            List<CounterChange> changes) throws Exception {
        StoreHooks hooks = new StoreHooks(ConfigProvider.getConfig().getValue("quarkus.dynamodb.endpoint-override",
                String.class));
        hooks.holdWrites(List.of(inFlight.counter().pk() + " " + inFlight.counter().sk()), Duration.ofMillis(1500));
        try {
            CompletableFuture<Optional<Map<String, AttributeValue>>> held = store.changeCounter(inFlight)
                    .subscribeAsCompletionStage();
            List<CompletableFuture<Optional<Map<String, AttributeValue>>>> answers = changes.stream()
                    .map(change -> store.changeCounter(change).subscribeAsCompletionStage()).toList();
            assertTrue(held.get(30, TimeUnit.SECONDS).isPresent());
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).handle((done, failure) -> done)
                    .get(30, TimeUnit.SECONDS);
            return answers;
        } finally {
            hooks.noHeldWrites();
        }
    }

    private static void assertFenced(CompletableFuture<Optional<Map<String, AttributeValue>>> answer) {
        ExecutionException refused = assertThrows(ExecutionException.class, () -> answer.get(30, TimeUnit.SECONDS));
        assertTrue(refused.getCause() instanceof FencedCountException, refused.getCause().toString());
    }

    private static CounterChange fenced(CounterChange change, String topic, int partition, long epoch) {
        return new CounterChange(change.counter(), change.counterType(), change.attribute(), change.delta(),
                change.marker(), change.markerFlag(), change.token(), change.version(),
                new OwnerFence(topic, partition, epoch));
    }

    private CounterChange changeOfAnotherChild(CounterChange of) {
        Key marker = new Key(of.counter().pk(), "CHILD#" + Ids.newId());
        store.update(ItemUpdate.of(marker, "TestChild")).await().indefinitely();
        return new CounterChange(of.counter(), "UserProfile", "postCount", 1, marker, "counted", Ids.newId(), 1);
    }

    private void countAndRelease(CounterChange change) {
        store.countOnce(change).await().indefinitely();
        release(change);
    }

    private void release(CounterChange change) {
        store.releaseCountTokens(change.counter(), List.of(change.token())).await().indefinitely();
    }

    private CounterChange newChange() {
        Key counter = new Key("TEST#" + Ids.newId(), "PROFILE");
        Key marker = new Key(counter.pk(), "CHILD#" + Ids.newId());
        store.update(ItemUpdate.of(marker, "TestChild")).await().indefinitely();
        return new CounterChange(counter, "UserProfile", "postCount", 1, marker, "counted", Ids.newId(), 1);
    }

    private Map<String, AttributeValue> counter(CounterChange change) {
        return store.read(change.counter()).await().indefinitely().orElseThrow();
    }
}
