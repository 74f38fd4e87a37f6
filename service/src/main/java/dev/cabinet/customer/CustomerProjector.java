package dev.cabinet.customer;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderPlacedV1;
import dev.cabinet.customer.CustomerEvent.OrderStatusChanged;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what customer events do: the profile is the stream's root, and each order is written with its entry in GSI1
 * (by order id) and one in a date shard of GSI2, all composed by the key plan.
 */
@ApplicationScoped
public class CustomerProjector implements Projector<CustomerEvent> {

    private final OrdersConfig orders;

    CustomerProjector(OrdersConfig orders) {
        this.orders = orders;
    }

    @Override
    public List<EventType<? extends CustomerEvent>> eventTypes() {
        return List.of(CustomerEvent.REGISTERED, CustomerEvent.ORDER_PLACED, CustomerEvent.ORDER_PLACED_V1,
                CustomerEvent.ORDER_STATUS_CHANGED);
    }

    /** A registration creates the profile or replaces it (PUT); an order needs its customer. */
    @Override
    public StreamTarget target(CustomerEvent event) {
        return event instanceof CustomerRegistered
                ? StreamTarget.upserting(KeyPlan.CUSTOMER_STREAM, event.customerId())
                : StreamTarget.of(KeyPlan.CUSTOMER_STREAM, event.customerId());
    }

    /** A status change reads its order: whether it exists, and whether its status may become the new one. */
    @Override
    public List<Key> needs(CustomerEvent event) {
        return event instanceof OrderStatusChanged e ? List.of(order(e)) : List.of();
    }

    @Override
    public WritePlan decide(CustomerEvent event, Reads reads) {
        if (event instanceof CustomerRegistered e) {
            return WritePlan.onRoot(KeyPlan.CUSTOMER.write(Map.of(
                    Attributes.CUSTOMER_ID, e.customerId(),
                    Attributes.NAME, e.name(),
                    Attributes.EMAIL, e.email())));
        }
        if (event instanceof OrderPlacedV1 e) {
            return placed(e.upcast());
        }
        if (event instanceof OrderPlaced e) {
            return placed(e);
        }
        OrderStatusChanged e = (OrderStatusChanged) event;
        Optional<Map<String, AttributeValue>> order = reads.item(order(e));
        if (order.isEmpty()) {
            return WritePlan.reject("order " + e.orderId() + " does not exist");
        }
        // The lifecycle, in log order: of two changes the API accepted at once (a cancellation and a shipment), the
        // later one is rejected if the earlier one ended where it cannot go. Where this very event set the status
        // already (an attempt that crashed before its recording), the status is its own: no change, decided alike.
        String current = Items.string(order.get(), Attributes.STATUS);
        if (current != null && !current.equals(e.status()) && !OrderStatus.allows(current, e.status())) {
            return WritePlan.reject("order " + e.orderId() + " is " + current + " and cannot become " + e.status());
        }
        return WritePlan.onRoot().write(ItemUpdate.of(order(e)).set(Attributes.STATUS, e.status()).onlyIfExists())
                .decidesAlikeAfterWriting(order(e));
    }

    /** The order with both index entries; a status it already has (a later change) is kept. */
    private WritePlan placed(OrderPlaced e) {
        return WritePlan.onRoot().write(KeyPlan.ORDER.write(Map.of(
                Attributes.CUSTOMER_ID, e.customerId(),
                Attributes.ORDER_ID, e.orderId(),
                Attributes.ORDER_DATE, e.orderDate(),
                Attributes.PLACED_AT, e.placedAt(),
                Attributes.TOTAL, OrderTotal.amount(e.total()),
                Attributes.SHARD, Shards.of(e.orderId(), orders.shards())))
                .setIfAbsent(Attributes.STATUS, OrderStatus.PLACED));
    }

    private static Key order(OrderStatusChanged e) {
        return KeyPlan.ORDER.key(e.customerId(), e.orderDate(), e.orderId());
    }
}
