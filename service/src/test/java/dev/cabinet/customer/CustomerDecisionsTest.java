package dev.cabinet.customer;

import static dev.cabinet.decision.Rules.appends;
import static dev.cabinet.decision.Rules.conflict;
import static dev.cabinet.decision.Rules.notFound;
import static dev.cabinet.decision.Rules.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderStatusChanged;
import dev.cabinet.customer.CustomerDecisions.ChangeOrderStatus;
import dev.cabinet.customer.CustomerDecisions.PlaceOrder;
import dev.cabinet.customer.CustomerDecisions.RegisterCustomer;
import dev.cabinet.decision.Decision;

/** The rules of customer and order commands, given the views a resource reads; no Quarkus, no table. */
class CustomerDecisionsTest {

    private static final String PLACED_AT = "2026-06-01T23:59:59.999Z";
    private static final CustomerView ACME = new CustomerView("c1", "Acme Ltd", "orders@acme.example", null, null);
    private static final OrderView O100 = new OrderView("O100", "c1", "2026-06-01", PLACED_AT, "129.90",
            OrderStatus.PLACED);

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void followsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                rule("a customer is registered, or their profile replaced, as given",
                        CustomerDecisions.register(new RegisterCustomer("c1", new CustomerRequest("Acme Ltd",
                                "orders@acme.example"))),
                        appends(CustomerEvent.REGISTERED, new CustomerRegistered("c1", "Acme Ltd", "orders@acme.example"))),
                rule("an order is placed for a customer, dated by the UTC day of its placement",
                        CustomerDecisions.placeOrder(new PlaceOrder("c1", "O100", PLACED_AT, "129.90"), ACME, null),
                        appends(CustomerEvent.ORDER_PLACED, new OrderPlaced("c1", "O100", "2026-06-01", PLACED_AT,
                                "129.90"))),
                rule("no order is placed for a customer who does not exist",
                        CustomerDecisions.placeOrder(new PlaceOrder("c1", "O100", PLACED_AT, "129.90"), null, null),
                        notFound("customer c1 does not exist")),
                rule("an order id already in use is refused rather than overwritten",
                        CustomerDecisions.placeOrder(new PlaceOrder("c1", "O100", PLACED_AT, "5.00"), ACME, O100),
                        conflict("order O100 already exists")),
                rule("the same placement again (a retry after its first event was applied) appends it again",
                        CustomerDecisions.placeOrder(new PlaceOrder("c1", "O100", O100.placedAt(), O100.total()), ACME,
                                O100),
                        appends(CustomerEvent.ORDER_PLACED, new OrderPlaced("c1", "O100", O100.orderDate(),
                                O100.placedAt(), O100.total()))),
                rule("an order's status changes, keeping the customer and date its keys need",
                        CustomerDecisions.changeStatus(new ChangeOrderStatus("O100", "paid"), O100),
                        appends(CustomerEvent.ORDER_STATUS_CHANGED, new OrderStatusChanged("c1", "O100", "2026-06-01",
                                "paid"))),
                rule("a status change to the status the order has is a conflict",
                        CustomerDecisions.changeStatus(new ChangeOrderStatus("O100", OrderStatus.PLACED), O100),
                        conflict("order O100 is already placed")),
                rule("an order goes only where its lifecycle allows: a delivered one is never placed again",
                        CustomerDecisions.changeStatus(new ChangeOrderStatus("O100", OrderStatus.PLACED),
                                withStatus(O100, "delivered")),
                        conflict("order O100 is delivered and cannot become placed (it may become none: it is final)")),
                rule("nor is a cancelled order shipped",
                        CustomerDecisions.changeStatus(new ChangeOrderStatus("O100", "shipped"),
                                withStatus(O100, "cancelled")),
                        conflict("order O100 is cancelled and cannot become shipped (it may become none: it is final)")),
                rule("a shipped order is delivered, and nothing else",
                        CustomerDecisions.changeStatus(new ChangeOrderStatus("O100", "paid"), withStatus(O100, "shipped")),
                        conflict("order O100 is shipped and cannot become paid (it may become delivered)")),
                rule("the status of an order that does not exist is not found",
                        CustomerDecisions.changeStatus(new ChangeOrderStatus("O100", "paid"), null),
                        notFound("order O100 does not exist")));
    }

    private static OrderView withStatus(OrderView order, String status) {
        return new OrderView(order.id(), order.customerId(), order.orderDate(), order.placedAt(), order.total(), status);
    }
}
