package dev.cabinet.customer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderPlacedV1;
import dev.cabinet.customer.CustomerEvent.OrderStatusChanged;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.execution.Rounds;
import dev.cabinet.projection.execution.StreamProgress;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The customer projector's decisions, event type by event type, without a table. */
class CustomerProjectorTest {

    private static final CustomerProjector PROJECTOR = new CustomerProjector(() -> 4);
    private static final Map<String, AttributeValue> CUSTOMER = Map.of("customerId", AttributeValue.fromS("c1"));
    private static final Key ORDER = new Key("CUSTOMER#c1", "ORDER#2026-06-01#o1");
    private static final String PLACED_ORDER = "onRoot(null) then [Write[update=CUSTOMER#c1/ORDER#2026-06-01#o1: "
            + "SET type = \"Order\", gsi1pk = \"ORDER#o1\", gsi1sk = \"CUSTOMER#c1\", gsi2pk = \"ORDERS#2026-06-01#2\", "
            + "gsi2sk = \"2026-06-01T10:00:00.000Z#o1\", orderId = \"o1\", customerId = \"c1\", "
            + "orderDate = \"2026-06-01\", placedAt = \"2026-06-01T10:00:00.000Z\", total = 129.90, "
            + "status = if_not_exists(status, \"placed\")]]";

    @Test
    void aRegistrationCreatesTheProfileOrReplacesIt() {
        CustomerRegistered registered = new CustomerRegistered("c1", "Ada Shop", "ada@example.com");
        StreamTarget target = PROJECTOR.target(registered);
        assertEquals(KeyPlan.CUSTOMER_STREAM, target.stream());
        assertEquals(new Key("CUSTOMER#c1", "PROFILE"), target.root());
        assertTrue(target.upserts(), "found or not, the profile is written");
        String profile = "onRoot(CUSTOMER#c1/PROFILE: SET type = \"Customer\", customerId = \"c1\", "
                + "name = \"Ada Shop\", email = \"ada@example.com\") then []";
        assertEquals(profile, PROJECTOR.decide(registered, new Reads(Optional.empty(), Map.of())).toString());
        assertEquals(profile, PROJECTOR.decide(registered, new Reads(Optional.of(CUSTOMER), Map.of())).toString());
    }

    @Test
    void anOrderIsRecordedOnItsCustomersProfileAndWrittenWithItsEntryInBothIndexes() {
        OrderPlaced placed = new OrderPlaced("c1", "o1", "2026-06-01", "2026-06-01T10:00:00.000Z", "129.90");
        StreamTarget target = PROJECTOR.target(placed);
        assertEquals(new Key("CUSTOMER#c1", "PROFILE"), target.root());
        assertFalse(target.creates(), "an order of a customer that does not exist is rejected");
        assertEquals(List.of(), PROJECTOR.needs(placed));
        assertEquals(PLACED_ORDER, PROJECTOR.decide(placed, new Reads(Optional.of(CUSTOMER), Map.of())).toString());
    }

    @Test
    void aVersionOneOrderIsProjectedAsItsUpcastVersionTwo() {
        assertTrue(PROJECTOR.eventTypes().contains(CustomerEvent.ORDER_PLACED_V1));
        OrderPlacedV1 placed = new OrderPlacedV1("c1", "o1", "2026-06-01", "2026-06-01T10:00:00.000Z",
                new BigDecimal("129.9"));
        assertEquals(PLACED_ORDER, PROJECTOR.decide(placed, new Reads(Optional.of(CUSTOMER), Map.of())).toString());
    }

    @Test
    void aDaysOrdersAreSpreadOverAsManyGsi2ShardsAsConfigured() {
        OrderPlaced placed = new OrderPlaced("c1", "o1", "2026-06-01", "2026-06-01T10:00:00.000Z", "129.90");
        String oneShard = new CustomerProjector(() -> 1).decide(placed, new Reads(Optional.of(CUSTOMER), Map.of()))
                .toString();
        assertTrue(oneShard.contains("gsi2pk = \"ORDERS#2026-06-01#0\""), oneShard);
    }

    @Test
    void aStatusChangeReadsItsOrderAndIsRejectedWhenItDoesNotExist() {
        OrderStatusChanged changed = new OrderStatusChanged("c1", "o1", "2026-06-01", "paid");
        assertFalse(PROJECTOR.target(changed).creates());
        assertEquals(List.of(ORDER), PROJECTOR.needs(changed));
        assertEquals("reject(order o1 does not exist)", PROJECTOR.decide(changed,
                new Reads(Optional.of(CUSTOMER), Map.of(ORDER, Optional.empty()))).toString());
    }

    /**
     * The order's status is set in the same round as the change's recording: where the order already carries this
     * very change (an attempt that crashed before its recording), the decision is alike, so deciding again after a
     * crash between the two gives the same write.
     */
    @Test
    void aStatusChangeOfAnExistingOrderSetsItsStatusWithItsRecording() {
        OrderStatusChanged changed = new OrderStatusChanged("c1", "o1", "2026-06-01", "shipped");
        WritePlan plan = PROJECTOR.decide(changed, reads(order("placed", 3), 7));
        assertEquals("onRoot(null) then [Write[update=CUSTOMER#c1/ORDER#2026-06-01#o1: SET status = \"shipped\" "
                + "IF attribute_exists(pk)]], alike after writing [CUSTOMER#c1 / ORDER#2026-06-01#o1]",
                plan.toString());
        assertTrue(Rounds.recordsWithWrites(PROJECTOR.target(changed), plan, PROJECTOR.needs(changed)));
        // Its own write made before a crash (shipped already, by this event): decided alike.
        assertEquals(plan.toString(), PROJECTOR.decide(changed, reads(order("shipped", 7), 7)).toString());
    }

    /** Of two changes the API accepted at once, the later in the log goes only where the order's lifecycle allows. */
    @Test
    void aStatusChangeTheLifecycleDoesNotAllowIsRejectedInLogOrder() {
        OrderStatusChanged shipped = new OrderStatusChanged("c1", "o1", "2026-06-01", "shipped");
        assertEquals("reject(order o1 is cancelled and cannot become shipped)",
                PROJECTOR.decide(shipped, reads(order("cancelled", 5), 7)).toString());
        OrderStatusChanged delivered = new OrderStatusChanged("c1", "o1", "2026-06-01", "delivered");
        assertFalse(PROJECTOR.decide(delivered, reads(order("shipped", 5), 7)).rejection().isPresent());
    }

    /** The order as a status change reads it: its status, and the version of the event that wrote it last. */
    private static Map<String, AttributeValue> order(String status, long version) {
        return Map.of("status", AttributeValue.fromS(status),
                KeyPlan.CUSTOMER_STREAM.versionAttribute(), AttributeValue.fromN(Long.toString(version)));
    }

    private static Reads reads(Map<String, AttributeValue> order, long version) {
        return new Reads(Optional.of(CUSTOMER), Map.of(ORDER, Optional.of(order)), Map.of(),
                KeyPlan.CUSTOMER_STREAM.versionAttribute(), version);
    }

    @Test
    void registeringAnExistingCustomerAgainIsAppliedNotRejectedAsACreationWouldBe() {
        CustomerRegistered again = new CustomerRegistered("c1", "New Name", "new@example.com");
        Map<String, AttributeValue> registered = Map.of("customerId", AttributeValue.fromS("c1"),
                KeyPlan.CUSTOMER_STREAM.versionAttribute(), AttributeValue.fromN("3"));
        assertEquals(StreamProgress.Kind.NEW, StreamProgress.of(PROJECTOR.target(again), Optional.of(registered),
                Optional.empty(), "e7", 7).kind());
    }
}
