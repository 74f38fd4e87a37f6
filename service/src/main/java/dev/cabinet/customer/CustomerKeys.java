package dev.cabinet.customer;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** An order's key (its GSI2 date shard is {@link dev.cabinet.table.Shards#of} of the order id). */
final class CustomerKeys {

    private CustomerKeys() {
    }


    static Key order(String customerId, String orderDate, String orderId) {
        return KeyPlan.ORDER.key(customerId, orderDate, orderId);
    }

}
