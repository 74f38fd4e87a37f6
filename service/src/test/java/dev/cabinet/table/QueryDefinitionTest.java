package dev.cabinet.table;

import dev.cabinet.shared.InvalidIdException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The access patterns' Query definitions build the requests the reading code sends, and describe them for the docs. */
class QueryDefinitionTest {

    @Test
    void pattern3ReadsFromTheFirstCommentToThePostsMetadataNewestFirst() {
        assertEquals(KeyQuery.of(Index.TABLE, "POST#p1", SortKeyCondition.between("COMMENT#", "METADATA"), true),
                KeyPlan.POST_WITH_COMMENTS.query("p1"));
        assertEquals("with comments: Query POST#{postId}, sk BETWEEN 'COMMENT#' AND 'METADATA', descending "
                + "(the metadata, the counter shards, then the newest comments)", KeyPlan.POST_WITH_COMMENTS.describe());
    }

    @Test
    void pattern10ReadsTheGroupAndItsMemberCountShardsButNoMember() {
        assertEquals(KeyQuery.of(Index.TABLE, "GROUP#g1", SortKeyCondition.between("COUNT#", "METADATA"), true),
                KeyPlan.GROUP_WITH_COUNTS.query("g1"));
        assertEquals(List.of(KeyPlan.GROUP, KeyPlan.GROUP_COUNTER), KeyPlan.GROUP_WITH_COUNTS.itemTypes());
    }

    @Test
    void aPrefixQueryTakesTheOrderTheCallerChoosesWhenTheDefinitionLeavesItOpen() {
        assertEquals(KeyQuery.of(Index.TABLE, "POST#p1", SortKeyCondition.beginsWith("COMMENT#"), false),
                KeyPlan.POST_COMMENTS.inOrder(false, "p1"));
        assertThrows(IllegalStateException.class, () -> KeyPlan.POST_COMMENTS.query("p1"));
        assertThrows(IllegalStateException.class, () -> KeyPlan.USER_POSTS.inOrder(true, "u1"));
    }

    @Test
    void aShardedListIsOneQueryPerShardPartition() {
        assertEquals(List.of(KeyQuery.of(Index.GSI1, "POSTS#PUBLISHED#0", SortKeyCondition.any(), true),
                        KeyQuery.of(Index.GSI1, "POSTS#PUBLISHED#1", SortKeyCondition.any(), true)),
                KeyPlan.PUBLISHED_POSTS.shards(2));
        assertEquals(List.of(KeyQuery.of(Index.GSI2, "ORDERS#2026-01-31#0", SortKeyCondition.any(), false)),
                KeyPlan.ORDERS_ON_DATE.shards(1, "2026-01-31"));
        assertEquals("Query gsi1 POSTS#PUBLISHED#{shard} for each shard 0..n-1 in parallel, merged by gsi1sk, "
                + "descending", KeyPlan.PUBLISHED_POSTS.describe());
    }

    @Test
    void aRangeBoundsTheLeadingPlaceholderAndCoversTheWholeLastDay() {
        assertEquals(SortKeyCondition.between("ORDER#2026-01-01", "ORDER#2026-01-31~"),
                KeyPlan.CUSTOMER_ORDERS.inRange("2026-01-01", "2026-01-31", true, "c1").sortKey());
        assertEquals(SortKeyCondition.beginsWith("ORDER#"),
                KeyPlan.CUSTOMER_ORDERS.inRange(null, null, false, "c1").sortKey());
        assertEquals(SortKeyCondition.between("ORDER#", "ORDER#2026-01-31~"),
                KeyPlan.CUSTOMER_ORDERS.inRange(null, "2026-01-31", false, "c1").sortKey());
        // A metric sample's sort key is the timestamp itself: the upper end is exact.
        String from = "2026-01-01T00:00:00.000Z";
        String to = "2026-01-02T00:00:00.000Z";
        assertEquals(List.of(KeyQuery.of(Index.TABLE, "METRICS#r1#0", SortKeyCondition.between(from, to), false)),
                KeyPlan.METRICS_IN_RANGE.shardsInRange(1, from, to, "r1"));
        assertThrows(InvalidIdException.class, () -> KeyPlan.CUSTOMER_ORDERS.inRange("2026-1-1", null, true, "c1"));
    }

    @Test
    void aGetItemPatternNamesItsItemType() {
        AccessPattern first = KeyPlan.ACCESS_PATTERNS.get(0);
        assertEquals(List.of(KeyPlan.USER_PROFILE), first.itemTypes());
        assertEquals("GetItem USER#{userId} / PROFILE", first.keyCondition());
    }

    @Test
    void partitionValuesAreCheckedLikeEveryKey() {
        assertThrows(InvalidIdException.class, () -> KeyPlan.USER_POSTS.query("a#b"));
        assertThrows(IllegalArgumentException.class, () -> KeyPlan.USER_POSTS.query("u1", "u2"));
    }
}
