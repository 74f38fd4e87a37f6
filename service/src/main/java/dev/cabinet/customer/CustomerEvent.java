package dev.cabinet.customer;

import static dev.cabinet.eventlog.FieldSchema.Kind.AMOUNT;
import static dev.cabinet.eventlog.FieldSchema.Kind.DATE;
import static dev.cabinet.eventlog.FieldSchema.Kind.DECIMAL;
import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.ONE_OF;
import static dev.cabinet.eventlog.FieldSchema.Kind.TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import java.math.BigDecimal;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.TextRules;

/**
 * Facts about a customer and their orders, keyed by customer id on {@value Topics#CUSTOMERS}: the customer's cabinet
 * holds the profile and every order, and so does their stream.
 */
public sealed interface CustomerEvent extends DomainEvent permits CustomerEvent.CustomerRegistered,
        CustomerEvent.OrderPlaced, CustomerEvent.OrderPlacedV1, CustomerEvent.OrderStatusChanged {

    EventType<CustomerRegistered> REGISTERED = EventType.of("cabinet.customer.registered.v1", CustomerRegistered.class,
            Topics.CUSTOMERS);
    EventType<OrderPlaced> ORDER_PLACED = EventType.of("cabinet.customer.order-placed.v2", OrderPlaced.class,
            Topics.CUSTOMERS);
    /** The first version, with the total as a JSON number: still read from the log, upcast into v2 on read. */
    EventType<OrderPlacedV1> ORDER_PLACED_V1 = EventType.superseded("cabinet.customer.order-placed.v1",
            OrderPlacedV1.class, ORDER_PLACED, OrderPlacedV1::upcast, OrderPlacedV1::of);
    EventType<OrderStatusChanged> ORDER_STATUS_CHANGED = EventType.of("cabinet.customer.order-status-changed.v1",
            OrderStatusChanged.class, Topics.CUSTOMERS);

    String customerId();

    @Override
    default String aggregateId() {
        return customerId();
    }

    @EventSchema(description = "A customer was registered, or their profile replaced.", key = "customerId")
    record CustomerRegistered(@FieldSchema(ID) String customerId,
            @FieldSchema(value = TEXT, max = TextRules.NAME_MAX) String name,
            @FieldSchema(value = TEXT, max = TextRules.EMAIL_MAX) String email) implements CustomerEvent {
        /** The example the published schema shows. */
        public static final CustomerRegistered EXAMPLE = new CustomerRegistered("acme", "Acme Ltd",
                "orders@acme.example");

        public CustomerRegistered {
            EventFields.id("customerId", customerId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.text("email", email, TextRules.EMAIL_MAX);
        }
    }

    /**
     * The customer placed an order; {@code orderDate} is the UTC date of {@code placedAt}, {@code total} a decimal
     * string ({@link OrderTotal}).
     */
    @EventSchema(
            description = "The customer placed an order. orderDate must be the UTC date of placedAt (a rule across "
                    + "fields that JSON Schema cannot state; the projector checks it).",
            key = "customerId",
            incompatibleBecause = "v2 writes total as a decimal string where v1 wrote a JSON number (which lost "
                    + "cents in some readers): no reader of one reads the other, so the projector upcasts v1 events to "
                    + "v2 as it reads them")
    record OrderPlaced(@FieldSchema(ID) String customerId, @FieldSchema(ID) String orderId,
            @FieldSchema(DATE) String orderDate, @FieldSchema(TIMESTAMP) String placedAt,
            @FieldSchema(DECIMAL) String total) implements CustomerEvent {
        /** The example the published schema shows. */
        public static final OrderPlaced EXAMPLE = new OrderPlaced("acme", "01JORDER000000000000000001", "2026-01-31",
                "2026-01-31T12:00:00.000Z", "129.90");

        public OrderPlaced {
            EventFields.id("customerId", customerId);
            EventFields.id("orderId", orderId);
            requireDateOf(orderDate, placedAt);
            OrderTotal.require("total", total);
        }
    }

    /**
     * Version 1 of {@link OrderPlaced}: the total as a JSON number with at most two decimals. Read; written only while
     * {@code cabinet.events.write-version."cabinet.customer.order-placed"} says 1.
     */
    @EventSchema(
            description = "Superseded by cabinet.customer.order-placed.v2 (the total as a decimal string): still "
                    + "accepted and read from the log, upcast to v2 on read; producers write v2. The customer placed "
                    + "an order. orderDate must be the UTC date of placedAt (a rule across fields that JSON Schema "
                    + "cannot state; the projector checks it).",
            key = "customerId",
            deprecated = true)
    record OrderPlacedV1(@FieldSchema(ID) String customerId, @FieldSchema(ID) String orderId,
            @FieldSchema(DATE) String orderDate, @FieldSchema(TIMESTAMP) String placedAt,
            @FieldSchema(AMOUNT) BigDecimal total) implements CustomerEvent {
        private static final BigDecimal MAX_TOTAL = new BigDecimal(OrderTotal.MAX);

        /** The example the published schema shows (after the bound its constructor checks). */
        public static final OrderPlacedV1 EXAMPLE = new OrderPlacedV1("acme", "01JORDER000000000000000001",
                "2026-01-31", "2026-01-31T12:00:00.000Z", new BigDecimal("129.9"));

        public OrderPlacedV1 {
            EventFields.id("customerId", customerId);
            EventFields.id("orderId", orderId);
            requireDateOf(orderDate, placedAt);
            if (total == null || total.signum() < 0 || total.scale() > 2 || total.compareTo(MAX_TOTAL) > 0) {
                throw new IllegalArgumentException("total must be an amount from 0 to " + MAX_TOTAL.stripTrailingZeros()
                        .toPlainString() + " with at most 2 decimals");
            }
        }

        /** A v2 order as v1 writes it, for readers not yet upgraded: the total as a number ({@code "129.90"}: 129.90). */
        static OrderPlacedV1 of(OrderPlaced order) {
            return new OrderPlacedV1(order.customerId(), order.orderId(), order.orderDate(), order.placedAt(),
                    new BigDecimal(order.total()));
        }

        /** The same order as v2: the total in its canonical text ({@code 129.9} becomes {@code "129.90"}). */
        public OrderPlaced upcast() {
            return new OrderPlaced(customerId, orderId, orderDate, placedAt, OrderTotal.of(total));
        }
    }

    /** The order moved to another status; {@code orderDate} locates it in the customer's cabinet. */
    @EventSchema(
            description = "The order moved to another status; orderDate locates it in the customer's cabinet.",
            key = "customerId")
    record OrderStatusChanged(@FieldSchema(ID) String customerId, @FieldSchema(ID) String orderId,
            @FieldSchema(DATE) String orderDate,
            @FieldSchema(value = ONE_OF, allowed = {OrderStatus.PLACED, "paid", "shipped", "delivered", "cancelled"})
            String status)
            implements CustomerEvent {
        /** The example the published schema shows. */
        public static final OrderStatusChanged EXAMPLE = new OrderStatusChanged("acme", "01JORDER000000000000000001",
                "2026-01-31", "shipped");

        public OrderStatusChanged {
            EventFields.id("customerId", customerId);
            EventFields.id("orderId", orderId);
            EventFields.oneOf("status", status, OrderStatus.ALL);
            if (orderDate == null || !orderDate.matches("\\d{4}-\\d{2}-\\d{2}")) {
                throw new IllegalArgumentException("orderDate must be a date like 2026-01-31");
            }
        }
    }

    private static void requireDateOf(String orderDate, String placedAt) {
        EventFields.timestamp("placedAt", placedAt);
        if (orderDate == null || !placedAt.startsWith(orderDate + "T") || orderDate.length() != 10) {
            throw new IllegalArgumentException("orderDate must be the date of placedAt, like 2026-01-31");
        }
    }
}
