package dev.cabinet.table;

import dev.cabinet.shared.InvalidIdException;

import dev.cabinet.shared.Ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class KeyTemplateTest {

    @Test
    void rendersIdsTimestampsAndShardsIntoTheTemplate() {
        assertEquals("POST#2026-01-02T03:04:05.006Z#p1",
                KeyTemplate.of("POST#{createdAt}#{postId}").render("2026-01-02T03:04:05.006Z", "p1"));
        assertEquals("POSTS#PUBLISHED#3", KeyTemplate.of("POSTS#PUBLISHED#{shard}").render(3));
        assertEquals("ORDERS#2026-01-02#0", KeyTemplate.of("ORDERS#{orderDate}#{shard}").render("2026-01-02", 0));
    }

    @Test
    void refusesAnIdThatCouldSplitAKey() {
        InvalidIdException e = assertThrows(InvalidIdException.class, () -> KeyTemplate.of("USER#{userId}").render("a#b"));
        assertEquals("userId", e.field());
    }

    @Test
    void refusesTimestampsThatWouldNotSortAsStrings() {
        KeyTemplate template = KeyTemplate.of("POST#{createdAt}#{postId}");
        assertThrows(InvalidIdException.class, () -> template.render("2026-01-02T03:04:05Z", "p1"));
        assertThrows(InvalidIdException.class, () -> template.render(null, "p1"));
    }

    @Test
    void refusesNegativeShardsAndWrongArity() {
        assertThrows(InvalidIdException.class, () -> KeyTemplate.of("POSTS#PUBLISHED#{shard}").render(-1));
        assertThrows(IllegalArgumentException.class, () -> KeyTemplate.of("USER#{userId}").render("a", "b"));
    }

    @Test
    void givesTheLiteralPrefixForBeginsWithConditions() {
        assertEquals("POST#", KeyTemplate.of("POST#{createdAt}#{postId}").prefix());
        assertEquals("PROFILE", KeyTemplate.of("PROFILE").prefix());
    }

    @Test
    void rejectsPlaceholdersOfUnknownKind() {
        assertThrows(IllegalArgumentException.class, () -> KeyTemplate.of("USER#{name}"));
    }

    @Test
    void idsAcceptOnlyTheSafeAlphabet() {
        assertEquals(true, Ids.isValid(Ids.newId()));
        assertEquals(false, Ids.isValid(""));
        assertEquals(false, Ids.isValid("x".repeat(65)));
        assertEquals(false, Ids.isValid("ä"));
        assertEquals(false, Ids.isValid("a b"));
    }
}
