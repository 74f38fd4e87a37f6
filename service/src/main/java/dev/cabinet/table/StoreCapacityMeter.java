package dev.cabinet.table;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import dev.cabinet.role.RoleConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.Unremovable;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Counts the capacity DynamoDB says each call consumed, in production's units: every call asks for it
 * ({@code ReturnConsumedCapacity=INDEXES}) and the answer is added to
 * {@code cabinet.store.capacity.units{operation, kind, role, source}} ({@code cabinet_store_capacity_units_total} on
 * /q/metrics), where {@code kind} is {@code read} or {@code write} and {@code source} the event type the projector was
 * applying ({@link StoreCallSource}), the access pattern a read matches ({@code pattern-N}), or {@code other}. A call
 * that fails (a failed condition included) reports nothing, though DynamoDB bills a failed conditional write: the
 * capacity model (docs/capacity.md) counts those. Registered through {@code quarkus.dynamodb.interceptors}.
 */
@Singleton
@Unremovable
public class StoreCapacityMeter implements ExecutionInterceptor {

    /** The meter's name: {@code cabinet_store_capacity_units_total} in Prometheus' format. */
    public static final String METER = "cabinet.store.capacity.units";

    private static final ExecutionAttribute<String> SOURCE = StoreCallMeter.attribute("cabinet.call-source");
    private static final Set<String> READS = Set.of("GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems");

    private final MeterRegistry registry;
    private final String role;
    private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

    StoreCapacityMeter(MeterRegistry registry, RoleConfig role) {
        this.registry = registry;
        this.role = role.role().label();
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        // On the thread that makes the call: the source the caller named, if it named one.
        String source = StoreCallSource.current();
        attributes.putAttribute(SOURCE, source != null ? source : AccessPatterns.matching(context.request())
                .map(pattern -> "pattern-" + pattern).orElse("other"));
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        return withConsumedCapacity(context.request());
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        double units = consumed(context.response());
        if (units <= 0) {
            return;
        }
        String operation = String.valueOf(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        String source = attributes.getAttribute(SOURCE);
        List<String> series = List.of(operation, source == null ? "other" : source);
        counters.computeIfAbsent(series, tags -> Counter.builder(METER)
                .description("DynamoDB capacity units consumed, as the store reported them")
                .tag("operation", tags.get(0))
                .tag("kind", READS.contains(tags.get(0)) ? "read" : "write")
                .tag("role", role)
                .tag("source", tags.get(1))
                .register(registry)).increment(units);
    }

    /**
     * The request, asking for the capacity it consumes (INDEXES: the table's and each index's), where it can. The
     * operators' verification of a rebuilt table, the one Scan (TableComparison), is left as it is: no other class may
     * know the Scan (ArchitectureTest).
     */
    static SdkRequest withConsumedCapacity(SdkRequest request) {
        ReturnConsumedCapacity indexes = ReturnConsumedCapacity.INDEXES;
        if (request instanceof GetItemRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        if (request instanceof PutItemRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        if (request instanceof UpdateItemRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        if (request instanceof DeleteItemRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        if (request instanceof QueryRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        if (request instanceof BatchGetItemRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        if (request instanceof BatchWriteItemRequest r && r.returnConsumedCapacity() == null) {
            return r.toBuilder().returnConsumedCapacity(indexes).build();
        }
        return request;
    }

    /** The units a response reports: one ConsumedCapacity, or one per table for the batch calls. */
    @SuppressWarnings("unchecked")
    static double consumed(Object response) {
        if (!(response instanceof SdkResponse sdk)) {
            return 0;
        }
        Optional<Object> field = sdk.getValueForField("ConsumedCapacity", Object.class);
        if (field.isEmpty()) {
            return 0;
        }
        Object value = field.get();
        Collection<ConsumedCapacity> all = value instanceof Collection<?> list ? (Collection<ConsumedCapacity>) list
                : List.of((ConsumedCapacity) value);
        return all.stream().mapToDouble(capacity -> capacity.capacityUnits() == null ? 0 : capacity.capacityUnits())
                .sum();
    }
}
