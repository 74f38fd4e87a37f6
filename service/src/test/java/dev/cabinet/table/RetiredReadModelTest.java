package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * Which items the removal of a retired table's read model deletes (no I/O): every type of the key plan's but those
 * only the home table holds, which no other type's key can be taken for; an item the key plan does not know stays.
 */
class RetiredReadModelTest {

    @Test
    void everyTypeOfTheReadModelGoesAndWhatTheHomeTableHoldsBesidesStays() {
        for (ItemType type : KeyPlan.ITEM_TYPES) {
            Key sample = new Key(type.pk().render(values(type.pk())), type.sk().render(values(type.sk())));
            boolean kept = RetiredReadModel.KEPT_TYPES.contains(type.name());
            if (kept) {
                assertEquals(Optional.of(type), KeyPlan.typeOf(sample), "a kept item taken for another type's");
            }
            assertEquals(!kept, RetiredReadModel.ofTheReadModel(sample), type.name() + " at " + sample);
        }
        assertEquals(4, RetiredReadModel.KEPT_TYPES.size());
        assertFalse(RetiredReadModel.ofTheReadModel(new Key("SOMETHING#else", "UNKNOWN")), "unknown items stay");
    }

    /** A value of each placeholder's kind: a time, a date, a number or an id. */
    private static Object[] values(KeyTemplate template) {
        return template.placeholders().stream().map(placeholder -> switch (placeholder) {
            case "createdAt", "placedAt", "publishedAt", "timestamp", "uploadedAt" -> "2026-01-31T12:00:00.000Z";
            case "orderDate" -> "2026-01-31";
            case "shard", "offset", "partition" -> 1;
            default -> "x1";
        }).toArray();
    }
}
