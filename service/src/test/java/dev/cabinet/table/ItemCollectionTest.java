package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * No Query of an access pattern returns an item type its collection does not declare. For every Query, each item type
 * keyed by the same partition-key template in the same index has sample sort keys rendered from its template (extreme
 * values of every placeholder included: the smallest and largest id characters, the first and last timestamps) and
 * checked against the Query's sort-key condition. Partitions are compared by what their templates can render (a sample
 * key of either matches the other's pattern), not by how their placeholders are named.
 */
class ItemCollectionTest {

    private static final List<Object> IDS = List.of("-", "0", "A_z-9", "M", "p1", "z".repeat(64));
    private static final List<Object> TIMESTAMPS = List.of("0000-01-01T00:00:00.000Z", "2026-01-31T12:00:00.000Z",
            "9999-12-31T23:59:59.999Z");
    private static final List<Object> DATES = List.of("0000-01-01", "2026-01-31", "9999-12-31");
    private static final List<Object> NUMBERS = List.of(0, 7, Integer.MAX_VALUE);
    private static final List<Object> OFFSETS = List.of(0L, 42L, Long.MAX_VALUE);

    @Test
    void noQueryOfTheKeyPlanReadsAnItemTypeItsCollectionDoesNotDeclare() {
        assertEquals(List.of(), violations(KeyPlan.ITEM_TYPES, KeyPlan.ACCESS_PATTERNS));
    }

    @Test
    void everyQueryReadsEachItemTypeItsCollectionDeclares() {
        for (AccessPattern pattern : KeyPlan.ACCESS_PATTERNS) {
            for (QueryDefinition query : pattern.queries()) {
                for (ItemType type : query.itemTypes()) {
                    assertTrue(sortKeys(type, query.index()).stream()
                                    .anyMatch(sk -> conditions(query).stream().anyMatch(c -> c.matches(sk))),
                            "pattern " + pattern.number() + " never reads its own " + type);
                }
            }
        }
    }

    @Test
    void aLikeItemUnderAPostWouldFallInsidePattern3sRangeUnlessThePostsCollectionDeclaredIt() {
        ItemType like = ItemType.named("Like").key("POST#{postId}", "LIKE#{userId}").attributes("postId", "userId")
                .build();
        List<ItemType> types = new ArrayList<>(KeyPlan.ITEM_TYPES);
        types.add(like);

        List<String> found = violations(types, KeyPlan.ACCESS_PATTERNS);

        assertEquals(1, found.stream().map(v -> v.substring(0, v.indexOf(':'))).distinct().count(), found.toString());
        assertTrue(found.stream().anyMatch(v -> v.startsWith("pattern 3: Like's sort key LIKE#- falls inside sk BETWEEN "
                + "'COMMENT#' AND 'METADATA'")), found.toString());

        // Declared on purpose, the same range reads the likes with the post: no longer a trap.
        ItemCollection withLikes = ItemCollection.of("Post, comments and likes", Index.TABLE, KeyPlan.POST,
                KeyPlan.POST_COUNTER, KeyPlan.COMMENT, like);
        AccessPattern declared = new AccessPattern(3, "A post with its comments and likes", "GET /posts/{id}",
                QueryDefinition.over(withLikes).between(KeyPlan.COMMENT, KeyPlan.POST).descending().build());
        assertEquals(List.of(), violations(types, List.of(declared)));
    }

    @Test
    void aDraftUnderAUserWouldFallInsidePattern2sPrefix() {
        ItemType draft = ItemType.named("UserPostDraft").key("USER#{userId}", "POST#DRAFT#{postId}").build();
        List<ItemType> types = new ArrayList<>(KeyPlan.ITEM_TYPES);
        types.add(draft);

        List<String> found = violations(types, KeyPlan.ACCESS_PATTERNS);

        assertTrue(!found.isEmpty() && found.stream().allMatch(v -> v.startsWith("pattern 2: UserPostDraft's")),
                found.toString());
    }

    @Test
    void partitionsAreComparedByWhatTheTemplatesCanRenderNotByPlaceholderNames() {
        // FOLDER#{ownerId} names its placeholder differently from the folder's FOLDER#{folderId}: same partitions.
        ItemType draft = ItemType.named("FileDraft").key("FOLDER#{ownerId}", "FILE#DRAFT#{fileId}").build();
        List<ItemType> types = new ArrayList<>(KeyPlan.ITEM_TYPES);
        types.add(draft);

        List<String> found = violations(types, KeyPlan.ACCESS_PATTERNS);

        assertTrue(!found.isEmpty() && found.stream().allMatch(v -> v.startsWith("pattern 11: FileDraft's")),
                found.toString());
        assertTrue(KeyTemplate.of("ORDER#{orderDate}#{orderId}").pattern().matcher("ORDER#2026-01-31#o-1").matches());
        assertTrue(!KeyTemplate.of("PARKED#{parkedKeyId}").pattern().matcher("PARKED").matches());
    }

    @Test
    void aCollectionRefusesAnItemTypeOfAnotherPartitionAndAQueryATypeOutsideItsCollection() {
        assertThrows(IllegalArgumentException.class,
                () -> ItemCollection.of("mixed", Index.TABLE, KeyPlan.POST, KeyPlan.USER_POST));
        assertThrows(IllegalArgumentException.class,
                () -> QueryDefinition.over(KeyPlan.POST_AND_COMMENTS).prefix(KeyPlan.POST_TOMBSTONE));
    }

    @Test
    void anOwnersDeletionReachesNoItemTypeThatDoesNotGoWithIt() {
        assertEquals(List.of(), deletionViolations(KeyPlan.ITEM_TYPES));
        // A new feature's types are pinned by its own decisions test (as LikeDecisionsTest does), not added here.
        assertTrue(KeyPlan.deletedWith(KeyPlan.POST).containsAll(List.of(KeyPlan.COMMENT, KeyPlan.LIKE,
                KeyPlan.POST_COUNTER)), KeyPlan.deletedWith(KeyPlan.POST).toString());
    }

    @Test
    void aDraftCommentUnderAPostWouldBeDeletedWithTheComments() {
        ItemType draft = ItemType.named("CommentDraft").key("POST#{postId}", "COMMENT#DRAFT#{commentId}").build();
        List<ItemType> types = new ArrayList<>(KeyPlan.ITEM_TYPES);
        types.add(draft);

        List<String> found = deletionViolations(types);

        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("Comment's deletion with its Post reaches CommentDraft's sort key "),
                found.toString());
    }

    @Test
    void anItemTypeGoesOnlyWithAnOwnerWhosePartitionKeyNamesItsPartition() {
        assertThrows(IllegalArgumentException.class, () -> ItemType.named("Stray").key("USER#{userId}", "LIKE#{postId}")
                .deletedWith(KeyPlan.POST).build());
        assertThrows(IllegalArgumentException.class, () -> ItemType.named("Kept").key("POST#{postId}", "KEPT#{id}")
                .permanent().deletedWith(KeyPlan.POST).build());
    }

    /** One line per item type that a deletion of another type's items under its owner would take too. */
    static List<String> deletionViolations(List<ItemType> itemTypes) {
        List<String> found = new ArrayList<>();
        for (ItemType owned : itemTypes) {
            if (owned.deletedWith().isEmpty()) {
                continue;
            }
            Map<String, Object> owner = new HashMap<>();
            owned.deletedWith().get().pk().placeholders().forEach(name -> owner.put(name, "p1"));
            SortKeyCondition condition = owned.collectionUnder(owner).sortKey();
            for (ItemType other : itemTypes) {
                if (other == owned || !samePartitions(other.pk(), owned.pk())) {
                    continue;
                }
                sortKeys(other, Index.TABLE).stream().filter(condition::matches).findFirst().ifPresent(sk ->
                        found.add(owned + "'s deletion with its " + owned.deletedWith().get() + " reaches " + other
                                + "'s sort key " + sk));
            }
        }
        return found;
    }

    /** One line per item type a Query's condition reaches without its collection declaring it. */
    static List<String> violations(List<ItemType> itemTypes, List<AccessPattern> patterns) {
        List<String> found = new ArrayList<>();
        for (AccessPattern pattern : patterns) {
            for (QueryDefinition query : pattern.queries()) {
                for (ItemType type : itemTypes) {
                    KeyTemplate pk = ItemCollection.pkOf(type, query.index());
                    if (pk == null || !samePartitions(pk, query.collection().partition())
                            || query.collection().declares(type)) {
                        continue;
                    }
                    for (SortKeyCondition condition : conditions(query)) {
                        sortKeys(type, query.index()).stream().filter(condition::matches).findFirst().ifPresent(sk ->
                                found.add("pattern " + pattern.number() + ": " + type + "'s sort key " + sk
                                        + " falls inside " + describe(condition, query.index()) + " but the collection "
                                        + query.collection().name() + " does not declare it"));
                    }
                }
            }
        }
        return found.stream().distinct().toList();
    }

    /** Whether the two templates can render the same partition key: a sample of either matches the other. */
    private static boolean samePartitions(KeyTemplate a, KeyTemplate b) {
        return keys(a).stream().anyMatch(key -> b.pattern().matcher(key).matches())
                || keys(b).stream().anyMatch(key -> a.pattern().matcher(key).matches());
    }

    /** The conditions a Query can take: its own, or for a range the widest one and the open one. */
    private static List<SortKeyCondition> conditions(QueryDefinition query) {
        if (query.sortKey() != QueryDefinition.SortKey.RANGE) {
            return List.of(query.condition());
        }
        ItemType ranged = query.itemTypes().get(0);
        List<Object> values = samples(ItemCollection.skOf(ranged, query.index()).placeholders().get(0));
        return List.of(query.conditionInRange(values.get(0), values.get(values.size() - 1)),
                query.conditionInRange(null, null));
    }

    /** Sort keys of the item type in the index, from every combination of sample values. */
    static List<String> sortKeys(ItemType type, Index index) {
        return keys(ItemCollection.skOf(type, index));
    }

    /** Keys the template renders from every combination of sample values. */
    private static List<String> keys(KeyTemplate template) {
        List<List<Object>> combinations = List.of(List.of());
        for (String placeholder : template.placeholders()) {
            List<List<Object>> longer = new ArrayList<>();
            for (List<Object> combination : combinations) {
                for (Object value : samples(placeholder)) {
                    List<Object> next = new ArrayList<>(combination);
                    next.add(value);
                    longer.add(next);
                }
            }
            combinations = longer;
        }
        return combinations.stream().map(values -> template.render(values.toArray())).toList();
    }

    /** Sample values of a placeholder by the kind its name declares (as {@link KeyTemplate} checks), smallest first. */
    private static List<Object> samples(String placeholder) {
        if (placeholder.endsWith("Id")) {
            return IDS;
        }
        if (placeholder.endsWith("At") || placeholder.equals("timestamp")) {
            return TIMESTAMPS;
        }
        if (placeholder.endsWith("Date")) {
            return DATES;
        }
        if (placeholder.equals("offset")) {
            return OFFSETS;
        }
        return NUMBERS;
    }

    private static String describe(SortKeyCondition condition, Index index) {
        String sk = index.skAttribute();
        return switch (condition.kind()) {
            case BEGINS_WITH -> "begins_with(" + sk + ", '" + condition.from() + "')";
            case BETWEEN -> sk + " BETWEEN '" + condition.from() + "' AND '" + condition.to() + "'";
            default -> condition.kind().toString();
        };
    }
}
