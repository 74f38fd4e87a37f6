package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class KeyPlanTest {

    @Test
    void everyItemTypeHasAUniqueNameAndEveryPatternIsNumberedOnce() {
        Set<String> names = KeyPlan.ITEM_TYPES.stream().map(ItemType::name).collect(Collectors.toSet());
        assertEquals(KeyPlan.ITEM_TYPES.size(), names.size());
        // 1-16 are SPEC §2's patterns; the plan's own lookups follow them.
        List<Integer> numbers = KeyPlan.ACCESS_PATTERNS.stream().map(AccessPattern::number).collect(Collectors.toList());
        assertEquals(IntStream.rangeClosed(1, numbers.size()).boxed().collect(Collectors.toList()), numbers);
        assertTrue(numbers.size() >= 16, "SPEC's 16 patterns at least");
    }

    /** Each pattern's GET paths, as the API document names them: without query strings and optional parts. */
    @Test
    void aPatternsPathsAreItsGetsWithoutQueries() {
        assertEquals(List.of("/customers/{id}", "/customers/{id}/orders"), pattern(14).paths());
        assertEquals(List.of("/posts/{id}"), pattern(3).paths());
        AccessPattern mine = new AccessPattern(99, "The caller's own list", "GET /users/{id}/mine?after=x",
                pattern(24).reads().toArray(TableRead[]::new)).onlyForTheCaller();
        assertEquals(List.of("/users/{id}/mine"), mine.paths());
        assertTrue(mine.callerOnly() && !pattern(24).callerOnly(), "only a pattern declared so is private");
        assertEquals("The caller's own list (the user only)", mine.title(), "and the documents say so");
    }

    private static AccessPattern pattern(int number) {
        return KeyPlan.ACCESS_PATTERNS.get(number - 1);
    }

    /** The lists are found from the constants: every item type, copy and collection declared is in its list. */
    @Test
    void everyConstantOfTheKeyPlanIsInItsList() throws IllegalAccessException {
        for (Field field : KeyPlan.class.getFields()) {
            Object value = field.get(null);
            if (value instanceof ItemType type) {
                assertTrue(KeyPlan.ITEM_TYPES.contains(type), field.getName());
            } else if (value instanceof DeclaredCopy copy) {
                assertTrue(KeyPlan.COPIES.contains(copy), field.getName());
            } else if (value instanceof ItemCollection collection) {
                assertTrue(KeyPlan.COLLECTIONS.contains(collection), field.getName());
            }
        }
        assertEquals(KeyPlan.USER_PROFILE, KeyPlan.ITEM_TYPES.get(0), "in the order declared");
    }

    /** A value under a name the item type does not declare is refused, not dropped without a word. */
    @Test
    void aWriteOfAnUndeclaredAttributeFails() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> KeyPlan.GROUP.write(Map.of(Attributes.GROUP_ID, "g1",
                        Attributes.NAME, "Developers", "colour", "blue")));
        assertTrue(refused.getMessage().contains("Group has no attribute colour"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KeyPlan.GROUP.item(
                Map.of(Attributes.GROUP_ID, "g1", "colour", "blue")));
        // key placeholders (a counter's shard) and index placeholders are named values too, though not stored
        KeyPlan.GROUP_COUNTER.write(Map.of(Attributes.GROUP_ID, "g1", Attributes.SHARD, 3));
    }

    /** The projector's own items are written by typed updates, which refuse an attribute the key plan lacks. */
    @Test
    void aTypedUpdateWritesOnlyWhatItsTypeDeclares() {
        Key outcome = KeyPlan.EVENT_OUTCOME.key("e1");
        ItemUpdate typed = ItemUpdate.of(outcome, KeyPlan.EVENT_OUTCOME).set(Attributes.STATUS, "parked")
                .setIfAbsent(Attributes.POSITION, "cabinet.posts:3:7");
        assertTrue(typed.mentions(Attributes.STATUS) && typed.mentions(Attributes.POSITION));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ItemUpdate.of(outcome, KeyPlan.EVENT_OUTCOME).set("colour", "blue"));
        assertTrue(refused.getMessage().contains("EventOutcome has no attribute colour"), refused.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ItemUpdate.of(outcome, KeyPlan.EVENT_OUTCOME).guardedBy(Attributes.APPLIED_OFFSET, 1));
        assertThrows(IllegalArgumentException.class, () -> ItemUpdate.of(outcome, KeyPlan.PARKED_KEY),
                "a key of another type");
        ItemUpdate.of(outcome, "EventOutcome").set("colour", "blue");   // untyped: the caller's own bookkeeping
    }

    @Test
    void theTableDefinitionHasBothGsisWithIncludeProjectionsThatLeavePostBodiesOut() {
        CreateTableRequest request = TableDefinition.createTableRequest("cabinet");
        assertEquals(Set.of("gsi1", "gsi2"),
                request.globalSecondaryIndexes().stream().map(g -> g.indexName()).collect(Collectors.toSet()));
        Set<String> feedAttributes = new HashSet<>(KeyPlan.projectedAttributes(Index.GSI1));
        assertTrue(feedAttributes.contains("title"));
        assertTrue(feedAttributes.contains(KeyPlan.TYPE));
        assertFalse(feedAttributes.contains("body"));
    }

    @Test
    void aTableLikeTheDefinitionHasNoDifferences() {
        assertEquals(List.of(), TableVerifier.differences(describedAsDefined()));
    }

    @Test
    void aMissingGsiIsNamedInTheDifferences() {
        TableDescription withoutGsi2 = describedAsDefined().toBuilder()
                .globalSecondaryIndexes(describedAsDefined().globalSecondaryIndexes().stream()
                        .filter(g -> !g.indexName().equals("gsi2")).collect(Collectors.toList()))
                .build();
        List<String> differences = TableVerifier.differences(withoutGsi2);
        assertEquals(1, differences.size());
        assertTrue(differences.get(0).contains("gsi2 is missing"), differences.get(0));
    }

    private static TableDescription describedAsDefined() {
        CreateTableRequest request = TableDefinition.createTableRequest("cabinet");
        return TableDescription.builder()
                .keySchema(request.keySchema())
                .globalSecondaryIndexes(request.globalSecondaryIndexes().stream()
                        .map(g -> GlobalSecondaryIndexDescription.builder().indexName(g.indexName())
                                .keySchema(g.keySchema()).projection(g.projection()).build())
                        .collect(Collectors.toList()))
                .build();
    }
}
