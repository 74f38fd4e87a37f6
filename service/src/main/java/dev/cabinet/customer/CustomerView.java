package dev.cabinet.customer;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.query.Page;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A customer's profile; {@code orders} only when asked for ({@code ?include=orders}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomerView(String id, String name, String email, Page<OrderView> orders, @JsonIgnore String etag)
        implements Tagged {

    static CustomerView of(Map<String, AttributeValue> item) {
        return new CustomerView(Items.string(item, Attributes.CUSTOMER_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.EMAIL), null, ETags.of(item));
    }

    /** The profile with a page of its orders, tagged as that whole page ({@link ETags#of(java.util.List)}). */
    CustomerView withOrders(Page<OrderView> page, String pageEtag) {
        return new CustomerView(id, name, email, page, pageEtag);
    }
}
