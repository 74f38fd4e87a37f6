package dev.cabinet.customer;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The states an order goes through. */
public final class OrderStatus {

    public static final String PLACED = "placed";
    public static final Set<String> ALL = Set.of(PLACED, "paid", "shipped", "delivered", "cancelled");
    /** The same set as a pattern, for request validation. */
    public static final String PATTERN = "placed|paid|shipped|delivered|cancelled";

    /**
     * Where each status may go: paid or not, an order ships or is cancelled, and a shipped one is delivered; delivered
     * and cancelled are where it ends.
     */
    static final Map<String, Set<String>> NEXT = Map.of(
            PLACED, Set.of("paid", "shipped", "cancelled"),
            "paid", Set.of("shipped", "cancelled"),
            "shipped", Set.of("delivered"),
            "delivered", Set.of(),
            "cancelled", Set.of());

    private OrderStatus() {
    }

    /** Whether an order of status {@code from} may be given status {@code to}. */
    static boolean allows(String from, String to) {
        return NEXT.getOrDefault(from, Set.of()).contains(to);
    }

    /** The statuses an order of status {@code from} may be given, for a refusal's words. */
    static String nextOf(String from) {
        Set<String> next = NEXT.getOrDefault(from, Set.of());
        return next.isEmpty() ? "none: it is final" : String.join(", ", new TreeSet<>(next));
    }
}
