package dev.cabinet.customer;

import java.util.Set;

/** The states an order goes through. */
public final class OrderStatus {

    public static final String PLACED = "placed";
    public static final Set<String> ALL = Set.of(PLACED, "paid", "shipped", "delivered", "cancelled");
    /** The same set as a pattern, for request validation. */
    public static final String PATTERN = "placed|paid|shipped|delivered|cancelled";

    private OrderStatus() {
    }
}
