package dev.cabinet.support;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Runs an action of the test's, to its end, just before one chosen store call is sent: another party's whole work
 * (an operator's request, say) placed between two exact steps of the application's, which a test thread could only
 * hit by luck. The action runs on the thread that makes the call, so it must not wait for that thread's other work.
 * Registered for tests in {@code %test.quarkus.dynamodb.interceptors}.
 */
public class BeforeCall implements ExecutionInterceptor {

    private record Armed(String operation, Predicate<SdkRequest> chosen, Consumer<SdkRequest> action,
            CompletableFuture<Void> done) {
    }

    private static final AtomicReference<Armed> ARMED = new AtomicReference<>();

    /**
     * Runs {@code action} with the request before the next call of {@code operation} whose request {@code chosen}
     * picks; completes once it ran (exceptionally with what it threw; the call goes out either way).
     */
    public static CompletableFuture<Void> of(String operation, Predicate<SdkRequest> chosen,
            Consumer<SdkRequest> action) {
        Armed armed = new Armed(operation, chosen, action, new CompletableFuture<>());
        if (!ARMED.compareAndSet(null, armed)) {
            throw new IllegalStateException("an action before a call is armed already");
        }
        return armed.done();
    }

    /** Disarms what did not happen (a test that failed before its call). */
    public static void disarm() {
        ARMED.set(null);
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        Armed armed = ARMED.get();
        if (armed != null && armed.operation().equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                && armed.chosen().test(context.request()) && ARMED.compareAndSet(armed, null)) {
            try {
                armed.action().accept(context.request());
                armed.done().complete(null);
            } catch (RuntimeException | AssertionError e) {
                armed.done().completeExceptionally(e);
            }
        }
    }
}
