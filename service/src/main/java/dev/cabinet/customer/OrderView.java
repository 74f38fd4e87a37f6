package dev.cabinet.customer;

import java.math.BigDecimal;
import java.util.Map;

import dev.cabinet.query.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** An order as the API shows it. */
public record OrderView(String id, String customerId, String orderDate, String placedAt, BigDecimal total,
        String status) {

    static OrderView of(Map<String, AttributeValue> item) {
        return new OrderView(Items.string(item, "orderId"), Items.string(item, "customerId"),
                Items.string(item, "orderDate"), Items.string(item, "placedAt"), new BigDecimal(item.get("total").n()),
                Items.string(item, "status"));
    }
}
