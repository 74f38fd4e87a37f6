package dev.cabinet.table;

import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.arc.Unremovable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Times every DynamoDB call of every client (queries, projector, operators' tools) as
 * {@code cabinet.dynamodb.calls{operation, outcome}}: latency and errors by operation, where the outcome is
 * {@code success} or the store's error code ({@code ConditionalCheckFailedException} is how idempotent projection says
 * "already applied", so it is counted apart from real failures). Registered through
 * {@code quarkus.dynamodb.interceptors}.
 */
@Singleton
@Unremovable
public class StoreCallMeter implements ExecutionInterceptor {

    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("cabinet.call-started");

    private final MeterRegistry registry;

    StoreCallMeter(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(STARTED, System.nanoTime());
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        record(attributes, "success");
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        Throwable failure = context.exception();
        record(attributes, failure instanceof AwsServiceException service && service.awsErrorDetails() != null
                ? service.awsErrorDetails().errorCode() : failure.getClass().getSimpleName());
    }

    private void record(ExecutionAttributes attributes, String outcome) {
        Long started = attributes.getAttribute(STARTED);
        if (started != null) {
            Timer.builder("cabinet.dynamodb.calls")
                    .description("DynamoDB calls by operation and outcome, as the application sees them")
                    .tag("operation", String.valueOf(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME)))
                    .tag("outcome", outcome)
                    .register(registry)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }
}
