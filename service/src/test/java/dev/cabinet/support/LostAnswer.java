package dev.cabinet.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Loses the answer of one chosen store call after the store has carried it out: the SDK sees an I/O error instead of
 * the answer and sends the same request again, as it does after an attempt timeout (a store that answered later than
 * {@code api-call-attempt-timeout}) or a connection reset on the way back. The retry then meets its own first attempt's
 * effect: a conditional write finds its condition failed by itself. Registered for tests in
 * {@code %test.quarkus.dynamodb.interceptors}.
 */
public class LostAnswer implements ExecutionInterceptor {

    private record Armed(String operation, Predicate<SdkRequest> chosen, CompletableFuture<SdkRequest> lost) {
    }

    private static final AtomicReference<Armed> ARMED = new AtomicReference<>();

    /**
     * Loses the answer of the next call of {@code operation} (e.g. {@code UpdateItem}) whose request {@code chosen}
     * picks; completes with that request once its answer was lost (the SDK's retry follows).
     */
    public static CompletableFuture<SdkRequest> of(String operation, Predicate<SdkRequest> chosen) {
        Armed armed = new Armed(operation, chosen, new CompletableFuture<>());
        if (!ARMED.compareAndSet(null, armed)) {
            throw new IllegalStateException("a lost answer is armed already");
        }
        return armed.lost();
    }

    /** Disarms what did not happen (a test that failed before its call). */
    public static void disarm() {
        ARMED.set(null);
    }

    /** The request went out and its answer came back: the answer is dropped here, within the SDK's attempt. */
    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        Armed armed = ARMED.get();
        if (armed != null && armed.operation().equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                && armed.chosen().test(context.request()) && ARMED.compareAndSet(armed, null)) {
            armed.lost().complete(context.request());
            throw new UncheckedIOException(new IOException("the answer to " + armed.operation()
                    + " was lost on its way back (LostAnswer)"));
        }
    }
}
