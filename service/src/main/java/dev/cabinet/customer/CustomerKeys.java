package dev.cabinet.customer;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** An order's key, and the date shard its GSI2 entry goes to. */
final class CustomerKeys {

    private CustomerKeys() {
    }


    static Key order(String customerId, String orderDate, String orderId) {
        return KeyPlan.ORDER.key(customerId, orderDate, orderId);
    }


    static int shard(String orderId, int shards) {
        return Math.floorMod(orderId.hashCode(), shards);
    }
}
