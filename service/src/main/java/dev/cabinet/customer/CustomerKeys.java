package dev.cabinet.customer;

import dev.cabinet.table.Index;
import dev.cabinet.table.IndexEntry;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of a customer's cabinet (profile and orders) and of an order's GSI entries. */
final class CustomerKeys {

    private static final IndexEntry BY_ORDER_ID = KeyPlan.ORDER.entryIn(Index.GSI1).orElseThrow();
    private static final IndexEntry BY_DATE = KeyPlan.ORDER.entryIn(Index.GSI2).orElseThrow();

    private CustomerKeys() {
    }

    static Key profile(String customerId) {
        return KeyPlan.CUSTOMER.key(customerId);
    }

    static Key order(String customerId, String orderDate, String orderId) {
        return KeyPlan.ORDER.key(customerId, orderDate, orderId);
    }

    static String byOrderId(String orderId) {
        return BY_ORDER_ID.pk().render(orderId);
    }

    static int shard(String orderId, int shards) {
        return Math.floorMod(orderId.hashCode(), shards);
    }
}
