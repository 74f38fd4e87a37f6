package dev.cabinet.customer;

import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderStatusChanged;
import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;

/**
 * The rules of customer and order commands: any signed-in user registers customers (registering again replaces the
 * profile) and places orders for a customer that exists; an order id is used once; a status change must change it.
 * Every view argument is null when its item does not exist.
 */
public final class CustomerDecisions {

    /** The customer {@code customerId} is registered as {@code customer} says, or its profile replaced. */
    public record RegisterCustomer(String customerId, CustomerRequest customer) {
    }

    /** The customer places an order of {@code total} (a decimal string) under {@code orderId} at {@code placedAt}. */
    public record PlaceOrder(String customerId, String orderId, String placedAt, String total) {
    }

    /** The order {@code orderId} is given the status {@code status}. */
    public record ChangeOrderStatus(String orderId, String status) {
    }

    private CustomerDecisions() {
    }

    public static Decision register(RegisterCustomer command) {
        CustomerRequest customer = command.customer();
        return Decision.accept(CustomerEvent.REGISTERED, new CustomerRegistered(command.customerId(), customer.name(),
                customer.email()));
    }

    /**
     * {@code placedAt} is a fixed-width UTC instant; the order's date is its first ten characters. A client's own
     * order id already in use is refused: placing it again would overwrite another order. The same placement again
     * (customer, time and total: a retry whose first event was applied meanwhile) is accepted again, and its event
     * changes nothing the first did not.
     */
    public static Decision placeOrder(PlaceOrder command, CustomerView customer, OrderView existing) {
        if (customer == null) {
            return Decision.refuse(Refusal.notFound("customer", command.customerId()));
        }
        if (existing != null && !samePlacement(command, existing)) {
            return Decision.refuse(Refusal.conflict("order " + command.orderId() + " already exists"));
        }
        return Decision.accept(CustomerEvent.ORDER_PLACED, new OrderPlaced(command.customerId(), command.orderId(),
                command.placedAt().substring(0, 10), command.placedAt(), command.total()));
    }

    /**
     * A change to the status the order already has is refused, so that a client learns its view was stale, and so is
     * one its lifecycle does not allow ({@link OrderStatus#NEXT}), decided on the order as read; the projector decides
     * it again in log order, for two changes sent at once.
     */
    public static Decision changeStatus(ChangeOrderStatus command, OrderView order) {
        String orderId = command.orderId();
        String status = command.status();
        if (order == null) {
            return Decision.refuse(Refusal.notFound("order", orderId));
        }
        if (order.status().equals(status)) {
            return Decision.refuse(Refusal.conflict("order " + orderId + " is already " + status));
        }
        if (!OrderStatus.allows(order.status(), status)) {
            return Decision.refuse(Refusal.conflict("order " + orderId + " is " + order.status() + " and cannot become "
                    + status + " (it may become " + OrderStatus.nextOf(order.status()) + ")"));
        }
        return Decision.accept(CustomerEvent.ORDER_STATUS_CHANGED, new OrderStatusChanged(order.customerId(), orderId,
                order.orderDate(), status));
    }

    private static boolean samePlacement(PlaceOrder command, OrderView order) {
        return order.customerId().equals(command.customerId()) && order.placedAt().equals(command.placedAt())
                && order.total().equals(command.total());
    }
}
