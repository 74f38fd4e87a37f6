package dev.cabinet.support;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Freezes dynalite ({@link Freezer#store()}) the moment it has answered one chosen call, before the application sees
 * that answer: an outage that starts at an exact step of a request (say, right after its Idempotency-Key reservation),
 * which a freeze from the test's own thread could only hit by luck. Registered for tests in
 * {@code %test.quarkus.dynamodb.interceptors}.
 */
public class FreezeAfter implements ExecutionInterceptor {

    private record Armed(String operation, String marker, CompletableFuture<Freezer> frozen) {
    }

    private static final AtomicReference<Armed> ARMED = new AtomicReference<>();

    /**
     * Freezes the store once it has answered the next call of {@code operation} whose request mentions {@code marker};
     * completes with the freezer, which the test closes to thaw it.
     */
    public static CompletableFuture<Freezer> call(String operation, String marker) {
        Armed armed = new Armed(operation, marker, new CompletableFuture<>());
        if (!ARMED.compareAndSet(null, armed)) {
            throw new IllegalStateException("a freeze is armed already");
        }
        return armed.frozen();
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        Armed armed = ARMED.get();
        if (armed != null && armed.operation().equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                && context.request().toString().contains(armed.marker()) && ARMED.compareAndSet(armed, null)) {
            try {
                armed.frozen().complete(Freezer.store());
            } catch (RuntimeException e) {
                armed.frozen().completeExceptionally(e);
            }
        }
    }
}
