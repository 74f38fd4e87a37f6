package dev.cabinet.devservices.deployment.devui.sample;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** A key plan shaped as the service's dev.cabinet.table.KeyPlan is, for KeyPlanReaderTest. */
public final class KeyPlan {

    public static final String TYPE = "type";

    public static final ItemType CUSTOMER = new ItemType("Customer", "CUSTOMER#{customerId}", "PROFILE",
            List.of("customerId", "name"), List.of(), "the profile");

    public static final ItemType ORDER = new ItemType("Order", "CUSTOMER#{customerId}", "ORDER#{orderDate}#{orderId}",
            List.of("orderId", "total"),
            List.of(new IndexEntry(Index.GSI1, ItemType.template("ORDER#{orderId}"),
                    ItemType.template("CUSTOMER#{customerId}"), "always", List.of("orderId", "total"))), "");

    public static final ItemType METRIC = new ItemType("MetricSample", "METRICS#{resourceId}", "{timestamp}",
            List.of("cpu"), List.of(), "");

    public static final List<ItemType> ITEM_TYPES = List.of(CUSTOMER, ORDER, METRIC);

    public static final List<AccessPattern> ACCESS_PATTERNS = List.of(
            new AccessPattern(1, "Customer with orders", "GET /customers/{id}", Index.TABLE,
                    "Query CUSTOMER#c", CUSTOMER, ORDER));

    private KeyPlan() {
    }

    public static Set<String> projectedAttributes(Index index) {
        Set<String> projected = new TreeSet<>(Set.of(TYPE));
        ITEM_TYPES.forEach(type -> type.indexEntries().stream().filter(e -> e.index() == index)
                .forEach(e -> projected.addAll(e.projected())));
        return projected;
    }
}
