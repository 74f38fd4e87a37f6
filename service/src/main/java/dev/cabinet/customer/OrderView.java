package dev.cabinet.customer;

import java.math.BigDecimal;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** An order as the API shows it; the total as the events carry it, a decimal string ({@link OrderTotal}). */
public record OrderView(String id, String customerId, String orderDate, String placedAt,
        @Schema(example = "129.90", pattern = OrderTotal.PATTERN, description = OrderTotal.DESCRIPTION) String total,
        String status) {

    static OrderView of(Map<String, AttributeValue> item) {
        return new OrderView(Items.string(item, Attributes.ORDER_ID), Items.string(item, Attributes.CUSTOMER_ID),
                Items.string(item, Attributes.ORDER_DATE), Items.string(item, Attributes.PLACED_AT),
                OrderTotal.of(new BigDecimal(item.get(Attributes.TOTAL).n())), Items.string(item, Attributes.STATUS));
    }
}
