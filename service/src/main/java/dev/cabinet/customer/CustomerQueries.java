package dev.cabinet.customer;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
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

    /** Pattern 14: GetItem CUSTOMER#c / PROFILE. */
    public Uni<Optional<CustomerView>> findCustomer(String customerId) {
        return table.get(CustomerKeys.profile(customerId)).map(item -> item.map(CustomerView::of));
    }

    /**
     * Pattern 14: the customer's whole cabinet in ONE Query, newest first, so the profile comes first and then the
     * newest orders; the page's {@code next} continues the orders on {@code GET /customers/{id}/orders?order=desc}.
     */
    public Uni<Optional<CustomerView>> findCustomerWithOrders(String customerId, int orderLimit) {
        String profileSk = CustomerKeys.profile(customerId).sk();
        KeyQuery query = KeyQuery.of(Index.TABLE, CustomerKeys.partition(customerId),
                SortKeyCondition.between(CustomerKeys.orderPrefix(), profileSk), true);
        KeyQuery newestOrders = KeyQuery.of(Index.TABLE, CustomerKeys.partition(customerId),
                SortKeyCondition.beginsWith(CustomerKeys.orderPrefix()), true);
        return table.query(query, new PageRequest(orderLimit + 1, null), newestOrders).map(page -> {
            if (page.items().isEmpty() || !profileSk.equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            List<OrderView> orderViews = page.items().subList(1, page.items().size()).stream().map(OrderView::of).toList();
            return Optional.of(CustomerView.of(page.items().get(0)).withOrders(new Page<>(orderViews, page.next())));
        });
    }

    /**
     * Pattern 14: the customer's orders by date, {@code sk BETWEEN 'ORDER#from' AND 'ORDER#to~'} ('~' sorts after every
     * id character, so the whole of the last day is in), or all of them.
     */
    public Uni<Page<OrderView>> listOrders(String customerId, String fromDate, String toDate, boolean newestFirst,
            PageRequest page) {
        String prefix = CustomerKeys.orderPrefix();
        SortKeyCondition range = fromDate == null && toDate == null ? SortKeyCondition.beginsWith(prefix)
                : SortKeyCondition.between(prefix + (fromDate == null ? "" : fromDate),
                        prefix + (toDate == null ? "9999-12-31" : toDate) + "~");
        KeyQuery query = KeyQuery.of(Index.TABLE, CustomerKeys.partition(customerId), range, newestFirst);
        return table.query(query, page).map(result -> result.map(OrderView::of));
    }

    /** Pattern 15: Query GSI1 ORDER#o. */
    public Uni<Optional<OrderView>> findOrder(String orderId) {
        KeyQuery query = KeyQuery.of(Index.GSI1, CustomerKeys.byOrderId(orderId), SortKeyCondition.any(), false);
        return table.query(query, new PageRequest(1, null))
                .map(page -> page.items().stream().findFirst().map(OrderView::of));
    }

    /** Pattern 16: GSI2 ORDERS#d#{0..n-1} in parallel, merged by placing time. */
    public Uni<Page<OrderView>> listOrdersOn(String date, PageRequest page) {
        List<KeyQuery> shards = CustomerKeys.byDatePartitions(date, orders.shards()).stream()
                .map(partition -> KeyQuery.of(Index.GSI2, partition, SortKeyCondition.any(), false))
                .toList();
        return table.queryMerged(shards, page).map(result -> result.map(OrderView::of));
    }

    /** PUT /customers/{id} honours If-Match against the customer's profile item. */
    @Produces
    @Singleton
    static TaggedResource customerTags() {
        return TaggedPath.of("/customers/", CustomerKeys::profile);
    }
}
