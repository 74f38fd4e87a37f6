package dev.cabinet.customer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderPlacedV1;

/** The v1 to v2 upcast of an order placement: the total's number becomes its canonical decimal string, nothing else. */
class OrderPlacedUpcastTest {

    private static OrderPlaced upcast(String total) {
        return new OrderPlacedV1("C001", "O100", "2026-06-01", "2026-06-01T09:30:00.000Z", new BigDecimal(total))
                .upcast();
    }

    @Test
    void theTotalBecomesADecimalStringWithTwoDecimals() {
        assertEquals("129.90", upcast("129.9").total());
        assertEquals("19.99", upcast("19.99").total());
        assertEquals("0.00", upcast("0").total());
        assertEquals("7.00", upcast("7").total());
        assertEquals("1000.00", upcast("1E+3").total());
        assertEquals("1000000000.00", upcast("1000000000").total());
    }

    @Test
    void everyOtherFieldIsCarriedOverUnchanged() {
        assertEquals(new OrderPlaced("C001", "O100", "2026-06-01", "2026-06-01T09:30:00.000Z", "99.99"),
                upcast("99.99"));
    }

    @Test
    void aV1TotalOutsideItsOwnRulesNeverReachesTheUpcast() {
        assertThrows(IllegalArgumentException.class, () -> upcast("0.001"));
        assertThrows(IllegalArgumentException.class, () -> upcast("-1"));
        assertThrows(IllegalArgumentException.class, () -> upcast("1000000000.01"));
    }

    @Test
    void theTypeRegistryUpcastsV1IntoTheCurrentVersion() {
        OrderPlacedV1 v1 = new OrderPlacedV1("C001", "O100", "2026-06-01", "2026-06-01T09:30:00.000Z",
                new BigDecimal("12.5"));
        assertEquals("cabinet.customer.order-placed.v2", CustomerEvent.ORDER_PLACED_V1.currentName());
        assertEquals(v1.upcast(), CustomerEvent.ORDER_PLACED_V1.current(v1));
        assertEquals("12.50", ((OrderPlaced) CustomerEvent.ORDER_PLACED_V1.current(v1)).total());
    }
}
