package dev.cabinet.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** When the projector may call a position applied, given what index reads show of the entries it wrote. */
class IndexVisibilityTest {

    /** What an index read shows, by item key (its entry in the index the test looks at). */
    private final Map<Key, Map<String, AttributeValue>> index = new ConcurrentHashMap<>();
    /** The items as the table holds them. */
    private final Map<Key, Map<String, AttributeValue>> table = new ConcurrentHashMap<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** How many index reads were made. */
    private final AtomicInteger looks = new AtomicInteger();

    private IndexVisibility visibility(Duration limit) {
        return new IndexVisibility(expected -> Uni.createFrom().item(() -> {
            looks.incrementAndGet();
            return Optional.ofNullable(index.get(expected.item()));
        }),
                key -> Uni.createFrom().item(Optional.ofNullable(table.get(key))), limit, registry);
    }

    /** A like, whose one GSI entry (gsi2, the user's liked posts) exists while it is liked. */
    private static Map<String, AttributeValue> like(String postId, String createdAt, boolean liked) {
        Map<String, AttributeValue> item = new HashMap<>(KeyPlan.LIKE.key(postId, "u1").toAttributes());
        item.put(KeyPlan.TYPE, AttributeValue.fromS("Like"));
        item.put("postId", AttributeValue.fromS(postId));
        item.put("createdAt", AttributeValue.fromS(createdAt));
        if (liked) {
            item.put("gsi2pk", AttributeValue.fromS("LIKER#u1"));
            item.put("gsi2sk", AttributeValue.fromS(createdAt + "#" + postId));
        }
        return item;
    }

    private static Key keyOf(Map<String, AttributeValue> item) {
        return Key.of(item);
    }

    @Test
    void onlyItemTypesWithIndexEntriesAreFollowed() {
        assertTrue(IndexVisibility.indexed(KeyPlan.LIKE.key("p1", "u1")));
        assertTrue(IndexVisibility.indexed(KeyPlan.POST.key("p1")));
        assertFalse(IndexVisibility.indexed(KeyPlan.USER_PROFILE.key("u1")));
        assertFalse(IndexVisibility.indexed(KeyPlan.POST_COUNTER.key("p1", 3)));
    }

    @Test
    void aPositionWaitsForTheEntriesWrittenBeforeItNotForLaterOnes() {
        IndexVisibility visibility = visibility(Duration.ofSeconds(30));
        Map<String, AttributeValue> first = like("p1", "2026-01-01T00:00:00.000Z", true);
        visibility.wrote(first);
        CompletableFuture<Void> settled = visibility.settled().subscribeAsCompletionStage();
        visibility.wrote(like("p2", "2026-01-01T00:00:01.000Z", true));
        assertFalse(settled.isDone(), "the index does not show the first like yet");

        index.put(keyOf(first), first);
        await().atMost(Duration.ofSeconds(5)).until(settled::isDone);
        CompletableFuture<Void> later = visibility.settled().subscribeAsCompletionStage();
        assertFalse(later.isDone(), "the second like is still not shown");
    }

    @Test
    void anItemWrittenAgainIsAwaitedInItsNewestVersion() {
        IndexVisibility visibility = visibility(Duration.ofSeconds(30));
        Map<String, AttributeValue> older = like("p1", "2026-01-01T00:00:00.000Z", true);
        Map<String, AttributeValue> newer = like("p1", "2026-01-02T00:00:00.000Z", true);
        visibility.wrote(older);
        visibility.wrote(newer);
        index.put(keyOf(older), older);
        CompletableFuture<Void> settled = visibility.settled().subscribeAsCompletionStage();
        int before = looks.get();
        await().atMost(Duration.ofSeconds(5)).until(() -> looks.get() >= before + 3);
        assertFalse(settled.isDone(), "the index shows the older version only");
        index.put(keyOf(newer), newer);
        await().atMost(Duration.ofSeconds(5)).until(settled::isDone);
    }

    @Test
    void anItemThatWentAwayOrLeftTheIndexIsNoLongerAwaited() {
        IndexVisibility visibility = visibility(Duration.ofSeconds(30));
        Map<String, AttributeValue> deleted = like("p1", "2026-01-01T00:00:00.000Z", true);
        Map<String, AttributeValue> unliked = like("p2", "2026-01-01T00:00:00.000Z", true);
        visibility.wrote(deleted);
        visibility.wrote(unliked);
        visibility.deleted(keyOf(deleted));
        visibility.wrote(like("p2", "2026-01-01T00:00:00.000Z", false));
        assertTrue(visibility.settled().subscribeAsCompletionStage().isDone(), "nothing is awaited");
    }

    @Test
    void anEntryTheIndexNeverShowsIsGivenUpAfterTheLimitAndCounted() {
        IndexVisibility visibility = visibility(Duration.ofMillis(300));
        visibility.wrote(like("p1", "2026-01-01T00:00:00.000Z", true));
        visibility.settled().await().atMost(Duration.ofSeconds(5));
        assertEquals(1.0, registry.get(IndexVisibility.UNSEEN).counter().count());
    }

    @Test
    void aWriteThisWriterDidNotSeeIsAwaitedAsTheTableHoldsIt() {
        IndexVisibility visibility = visibility(Duration.ofSeconds(30));
        Map<String, AttributeValue> written = like("p1", "2026-01-01T00:00:00.000Z", true);
        Map<String, AttributeValue> changedElsewhere = like("p1", "2026-01-03T00:00:00.000Z", true);
        visibility.wrote(written);
        table.put(keyOf(changedElsewhere), changedElsewhere);
        index.put(keyOf(changedElsewhere), changedElsewhere);
        // After a second without the expected version, the table says what the index is to show now.
        visibility.settled().await().atMost(Duration.ofSeconds(5));
        assertEquals(0.0, registry.get(IndexVisibility.UNSEEN).counter().count());
    }

    @Test
    void withNoLimitNothingIsAwaited() {
        IndexVisibility visibility = visibility(Duration.ZERO);
        visibility.wrote(like("p1", "2026-01-01T00:00:00.000Z", true));
        assertTrue(visibility.settled().subscribeAsCompletionStage().isDone());
    }
}
