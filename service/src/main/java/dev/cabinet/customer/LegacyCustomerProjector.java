package dev.cabinet.customer;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderStatusChanged;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.Rejections;
import dev.cabinet.projection.StreamRoot;
import dev.cabinet.table.Index;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/**
 * Projects customer events onto the customer's profile (the stream's root: see {@link StreamRoot}) and their orders,
 * each with an entry in GSI1 (by order id) and one in a date shard of GSI2.
 */
@ApplicationScoped
public class LegacyCustomerProjector implements LegacyProjector {

    private final ProjectionStore store;
    private final StreamRoot root;
    private final Rejections rejections;
    private final OrdersConfig orders;

    LegacyCustomerProjector(ProjectionStore store, StreamRoot root, Rejections rejections, OrdersConfig orders) {
        this.store = store;
        this.root = root;
        this.rejections = rejections;
        this.orders = orders;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(CustomerEvent.REGISTERED, CustomerEvent.ORDER_PLACED, CustomerEvent.ORDER_PLACED_V1,
                CustomerEvent.ORDER_STATUS_CHANGED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        CustomerEvent data = (CustomerEvent) event.data();
        long version = event.version();
        if (data instanceof CustomerRegistered e) {
            return store.update(ItemUpdate.of(CustomerKeys.profile(e.customerId()), KeyPlan.CUSTOMER.name())
                    .set("customerId", e.customerId())
                    .set("name", e.name())
                    .set("email", e.email())
                    .guardedBy(CustomerKeys.VERSION, version))
                    .replaceWithVoid();
        }
        return root.apply(event, CustomerKeys.profile(data.customerId()), CustomerKeys.VERSION,
                "customer " + data.customerId(), false, (customer, progress) -> {
                    if (data instanceof OrderPlaced e) {
                        return recordOnRoot(e.customerId(), version).chain(() -> placed(e, version));
                    }
                    OrderStatusChanged e = (OrderStatusChanged) data;
                    return store.read(CustomerKeys.order(e.customerId(), e.orderDate(), e.orderId())).chain(order -> {
                        if (order.isEmpty()) {
                            return rejections.reject(event, "order " + e.orderId() + " does not exist");
                        }
                        return recordOnRoot(e.customerId(), version).chain(() -> store.update(
                                ItemUpdate.of(CustomerKeys.order(e.customerId(), e.orderDate(), e.orderId()))
                                        .set("status", e.status())
                                        .onlyIfExists()
                                        .guardedBy(CustomerKeys.VERSION, version)))
                                .replaceWithVoid();
                    });
                });
    }

    private Uni<Boolean> recordOnRoot(String customerId, long version) {
        return store.update(ItemUpdate.of(CustomerKeys.profile(customerId)).onlyIfExists()
                .guardedBy(CustomerKeys.VERSION, version));
    }

    private Uni<Void> placed(OrderPlaced e, long version) {
        return store.update(ItemUpdate.of(CustomerKeys.order(e.customerId(), e.orderDate(), e.orderId()),
                KeyPlan.ORDER.name())
                .set("orderId", e.orderId())
                .set("customerId", e.customerId())
                .set("orderDate", e.orderDate())
                .set("placedAt", e.placedAt())
                .set("total", OrderTotal.amount(e.total()))
                .setIfAbsent("status", OrderStatus.PLACED)
                .set(Index.GSI1.pkAttribute(), CustomerKeys.byOrderId(e.orderId()))
                .set(Index.GSI1.skAttribute(), CustomerKeys.byOrderIdSortKey(e.customerId()))
                .set(Index.GSI2.pkAttribute(), CustomerKeys.byDate(e.orderDate(), CustomerKeys.shard(e.orderId(),
                        orders.shards())))
                .set(Index.GSI2.skAttribute(), CustomerKeys.byDateSortKey(e.placedAt(), e.orderId()))
                .guardedBy(CustomerKeys.VERSION, version))
                .replaceWithVoid();
    }
}
