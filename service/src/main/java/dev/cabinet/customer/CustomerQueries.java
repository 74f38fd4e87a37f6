package dev.cabinet.customer;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.http.ETags;
import dev.cabinet.table.Items;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/** The customer and order reads, one method per access pattern (14, 15, 16). */
@ApplicationScoped
public class CustomerQueries {

    private final TableReader table;
    private final OrdersConfig orders;

    CustomerQueries(TableReader table, OrdersConfig orders) {
        this.table = table;
        this.orders = orders;
    }

    /** Pattern 14: GetItem of the customer's profile. */
    public Uni<Optional<CustomerView>> findCustomer(String customerId) {
        return table.get(KeyPlan.CUSTOMER.key(customerId)).map(item -> item.map(CustomerView::of));
    }

    /**
     * Pattern 14: the customer's whole cabinet in ONE Query, newest first, so the profile comes first and then the
     * newest orders; the page's {@code next} continues the orders on {@code GET /customers/{id}/orders?order=desc}.
     */
    public Uni<Optional<CustomerView>> findCustomerWithOrders(String customerId, int orderLimit) {
        String profileSk = KeyPlan.CUSTOMER.key(customerId).sk();
        return table.query(KeyPlan.CUSTOMER_WITH_ORDERS.query(customerId), new PageRequest(orderLimit + 1, null),
                KeyPlan.CUSTOMER_ORDERS.inRange(null, null, true, customerId)).map(page -> {
                    if (page.items().isEmpty() || !profileSk.equals(Items.string(page.items().get(0), Key.SK))) {
                        return Optional.empty();
                    }
                    List<OrderView> orderViews = page.items().subList(1, page.items().size()).stream()
                            .map(OrderView::of).toList();
                    return Optional.of(CustomerView.of(page.items().get(0))
                            .withOrders(new Page<>(orderViews, page.next()), ETags.of(page.items())));
                });
    }

    /**
     * Pattern 14: the customer's orders placed from {@code fromDate} to {@code toDate} (inclusive; either may be null
     * for an open end), or all of them.
     */
    public Uni<Page<OrderView>> listOrders(String customerId, String fromDate, String toDate, boolean newestFirst,
            PageRequest page) {
        return table.query(KeyPlan.CUSTOMER_ORDERS.inRange(fromDate, toDate, newestFirst, customerId), page)
                .map(result -> result.map(OrderView::of));
    }

    /** Pattern 15: an order by its id, through GSI1. */
    public Uni<Optional<OrderView>> findOrder(String orderId) {
        return table.query(KeyPlan.ORDER_BY_ID.query(orderId), new PageRequest(1, null))
                .map(page -> page.items().stream().findFirst().map(OrderView::of));
    }

    /** Pattern 16: GSI2's shards of the date in parallel, merged by placing time. */
    public Uni<Page<OrderView>> listOrdersOn(String date, PageRequest page) {
        return table.queryMerged(KeyPlan.ORDERS_ON_DATE.shards(orders.shards(), date), page)
                .map(result -> result.map(OrderView::of));
    }

    /** PUT /customers/{id} honours If-Match against the customer's profile item. */
    @Produces
    @Singleton
    static TaggedResource customerTags() {
        return TaggedPath.of("/customers/", KeyPlan.CUSTOMER::key);
    }
}
