package dev.cabinet.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.customer.CustomerEvent;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderPlacedV1;
import dev.cabinet.user.UserEvent;

/** Which version an event is written as, by {@code cabinet.events.write-version}: both ways, and a bad setting. */
class WrittenVersionTest {

    private static final OrderPlaced ORDER = new OrderPlaced("acme", "o1", "2026-01-31", "2026-01-31T12:00:00.000Z",
            "129.90");

    @Test
    void aTypeNotNamedIsWrittenInItsCurrentVersion() {
        WrittenVersion written = WrittenVersion.of(CustomerEvent.ORDER_PLACED, ORDER, Map.of());
        assertSame(CustomerEvent.ORDER_PLACED, written.type());
        assertSame(ORDER, written.data());
        assertSame(ORDER, WrittenVersion.of(CustomerEvent.ORDER_PLACED, ORDER,
                Map.of("cabinet.customer.order-placed", 2)).data());
    }

    @Test
    void untilEveryReaderReadsV2AnOrderIsWrittenAsV1AndReadsBackTheSame() {
        WrittenVersion written = WrittenVersion.of(CustomerEvent.ORDER_PLACED, ORDER,
                Map.of("cabinet.customer.order-placed", 1));
        assertEquals("cabinet.customer.order-placed.v1", written.type().name());
        OrderPlacedV1 v1 = (OrderPlacedV1) written.data();
        assertEquals(0, new BigDecimal("129.9").compareTo(v1.total()));
        assertEquals(ORDER, written.type().current(v1), "upcast on read, it is the order the API accepted");
    }

    @Test
    void aVersionThatCannotBeWrittenIsAClearError() {
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> WrittenVersion.of(
                UserEvent.REGISTERED, null, Map.of("cabinet.user.registered", 0)));
        assertTrue(none.getMessage().contains("no older version with a downcast"), none.getMessage());
        IllegalStateException newer = assertThrows(IllegalStateException.class, () -> WrittenVersion.of(
                CustomerEvent.ORDER_PLACED, ORDER, Map.of("cabinet.customer.order-placed", 3)));
        assertTrue(newer.getMessage().contains("the current version is 2"), newer.getMessage());
    }
}
