package dev.cabinet.projection.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.customer.CustomerEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;

/**
 * A {@code cabinet.events.write-version} key that names no event type is found before the instance starts: an
 * environment variable turns {@code "cabinet.customer.order-placed"} into {@code cabinet.customer.order.placed}, which
 * was ignored, and the current version was written in the middle of a rolling upgrade.
 */
class WriteVersionCheckTest {

    /** A projector that declares the customer events (order-placed in v1 and v2) and decides nothing. */
    private static final List<Projector<CustomerEvent>> PROJECTORS = List.of(new Projector<>() {
        @Override
        public List<EventType<? extends CustomerEvent>> eventTypes() {
            return List.of(CustomerEvent.REGISTERED, CustomerEvent.ORDER_PLACED, CustomerEvent.ORDER_PLACED_V1);
        }

        @Override
        public StreamTarget target(CustomerEvent event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public WritePlan decide(CustomerEvent event, Reads reads) {
            throw new UnsupportedOperationException();
        }
    });

    @Test
    void aKeyThatNamesNoEventTypeIsReportedAndADeclaredOneIsNot() {
        assertEquals(List.of(), WriteVersionCheck.unknownNames(Set.of("cabinet.customer.order-placed"), PROJECTORS));
        assertEquals(List.of("cabinet.customer.order.placed", "order-placed"), WriteVersionCheck.unknownNames(
                Set.of("order-placed", "cabinet.customer.order.placed", "cabinet.customer.registered"), PROJECTORS));
    }

    /** A version the type cannot be written as is refused at start, not on every command of the type (500). */
    @Test
    void aVersionWithNoDowncastToItIsReported() {
        assertEquals(List.of(), WriteVersionCheck.unwritableVersions(Map.of("cabinet.customer.order-placed", 1,
                "cabinet.customer.registered", 1), PROJECTORS));
        assertEquals(List.of("\"cabinet.customer.order-placed\"=3: cabinet.customer.order-placed.v2 has no version 3: "
                + "the current version is 2", "\"cabinet.customer.registered\"=0: cabinet.customer.registered.v1 cannot "
                + "be written as version 0 (no older version with a downcast)"), WriteVersionCheck.unwritableVersions(
                        Map.of("cabinet.customer.order-placed", 3, "cabinet.customer.registered", 0), PROJECTORS));
    }
}
