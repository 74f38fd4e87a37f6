package dev.cabinet.rebuild;

import static dev.cabinet.rebuild.RecordedEvents.event;
import static dev.cabinet.rebuild.RecordedEvents.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Which items a customer stream's rebuild resets: its whole partition, the profile and the orders (no I/O). */
class CustomerStreamResetTest {

    private static final CustomerStreamReset RESET = new CustomerStreamReset();
    private static final RecordedEvent REGISTERED = event(Topics.CUSTOMERS, "c1", 0, "e-registered",
            "{\"customerId\":\"c1\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
    private static final RecordedEvent PLACED = event(Topics.CUSTOMERS, "c1", 1, "e-placed",
            "{\"customerId\":\"c1\",\"orderId\":\"o1\",\"orderDate\":\"2026-06-01\","
                    + "\"placedAt\":\"2026-06-01T09:30:00.000Z\",\"total\":\"9.99\"}");

    @Test
    void theProfileAndEveryOrderAreDeletedAndNoCountIsHeld() {
        List<Map<String, AttributeValue>> partition = List.of(
                item(KeyPlan.CUSTOMER.key("c1"), Attributes.NAME, "Ada"),
                item(KeyPlan.ORDER.key("c1", "2026-06-01", "o1"), Attributes.STATUS, "placed"),
                item(KeyPlan.ORDER.key("c1", "2026-06-02", "o2"), Attributes.STATUS, "shipped"),
                item(KeyPlan.ORDER.key("c2", "2026-06-01", "o3"), Attributes.STATUS, "another customer's"));

        StreamReset.Reset reset = RESET.reset("c1", partition, List.of(REGISTERED, PLACED));

        assertEquals(List.of(KeyPlan.CUSTOMER.key("c1"), KeyPlan.ORDER.key("c1", "2026-06-01", "o1"),
                KeyPlan.ORDER.key("c1", "2026-06-02", "o2")), reset.deletes(), "its own items only, index entries "
                        + "going with them");
        assertEquals(List.of(), reset.resets());
        assertNull(reset.counter(), "a customer counts on no other aggregate's item");
        assertEquals(Set.of(), reset.tokens());
    }

    @Test
    void theStreamsItemsAreInTheCustomersPartition() {
        assertEquals("CUSTOMER#c1", RESET.partition("c1"));
        assertTrue(RESET.owns(item(KeyPlan.ORDER.key("c1", "2026-06-01", "o1"), Attributes.STATUS, "placed")));
        assertTrue(RESET.owns(item(KeyPlan.CUSTOMER.key("c1"), Attributes.NAME, "Ada")));
        assertFalse(RESET.owns(item(KeyPlan.EVENT_OUTCOME.key("e1"), Attributes.STATUS, "rejected")));
    }

    @Test
    void aKeyIsACustomerStreamWhenItsEventsNameItAsTheirCustomer() {
        assertEquals(Optional.empty(), RESET.notAStream("c1", List.of(REGISTERED, PLACED)));
        assertTrue(RESET.notAStream("c2", List.of(REGISTERED)).orElseThrow().contains("not a customer's"));
    }
}
