package dev.cabinet.table;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.reactivestreams.Publisher;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.instrumentation.awssdk.v2_2.AwsSdkTelemetry;
import io.quarkus.arc.Unremovable;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Makes every DynamoDB call a client span (OpenTelemetry's AWS SDK instrumentation) while tracing is on, and costs
 * nothing while it is off. The extension's own switch, {@code quarkus.dynamodb.telemetry.enabled}, is fixed at build
 * time, and its interceptor extracts a span's attributes and injects trace headers on every call even with the
 * OpenTelemetry SDK disabled: about 6% of a projector's CPU under load. Registered through
 * {@code quarkus.dynamodb.interceptors}; decided once, when the client is built, from {@code quarkus.otel.sdk.disabled}.
 */
@Singleton
@Unremovable
public class StoreTracing implements ExecutionInterceptor {

    private static final ExecutionInterceptor NONE = new ExecutionInterceptor() {
    };

    private final Supplier<OpenTelemetry> openTelemetry;
    /**
     * OpenTelemetry's interceptor, made at the first call (the client, and so this interceptor, is built before
     * OpenTelemetry is), or one that does nothing while tracing is off.
     */
    private volatile ExecutionInterceptor spans;

    @Inject
    StoreTracing(@ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean tracingOff,
            Instance<OpenTelemetry> openTelemetry) {
        this(tracingOff, openTelemetry::get);
    }

    StoreTracing(boolean tracingOff, Supplier<OpenTelemetry> openTelemetry) {
        this.openTelemetry = openTelemetry;
        this.spans = tracingOff ? NONE : null;
    }

    private ExecutionInterceptor spans() {
        ExecutionInterceptor made = spans;
        if (made == null) {
            synchronized (this) {
                if (spans == null) {
                    spans = AwsSdkTelemetry.create(openTelemetry.get()).newExecutionInterceptor();
                }
                made = spans;
            }
        }
        return made;
    }

    /** Whether store calls become spans on this instance. */
    public boolean traces() {
        return spans != NONE;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        spans().beforeExecution(context, attributes);
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        return spans().modifyRequest(context, attributes);
    }

    @Override
    public void beforeMarshalling(Context.BeforeMarshalling context, ExecutionAttributes attributes) {
        spans().beforeMarshalling(context, attributes);
    }

    @Override
    public void afterMarshalling(Context.AfterMarshalling context, ExecutionAttributes attributes) {
        spans().afterMarshalling(context, attributes);
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        return spans().modifyHttpRequest(context, attributes);
    }

    @Override
    public Optional<RequestBody> modifyHttpContent(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        return spans().modifyHttpContent(context, attributes);
    }

    @Override
    public Optional<AsyncRequestBody> modifyAsyncHttpContent(Context.ModifyHttpRequest context,
            ExecutionAttributes attributes) {
        return spans().modifyAsyncHttpContent(context, attributes);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        spans().beforeTransmission(context, attributes);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        spans().afterTransmission(context, attributes);
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        return spans().modifyHttpResponse(context, attributes);
    }

    @Override
    public Optional<Publisher<ByteBuffer>> modifyAsyncHttpResponseContent(Context.ModifyHttpResponse context,
            ExecutionAttributes attributes) {
        return spans().modifyAsyncHttpResponseContent(context, attributes);
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
            ExecutionAttributes attributes) {
        return spans().modifyHttpResponseContent(context, attributes);
    }

    @Override
    public void beforeUnmarshalling(Context.BeforeUnmarshalling context, ExecutionAttributes attributes) {
        spans().beforeUnmarshalling(context, attributes);
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        spans().afterUnmarshalling(context, attributes);
    }

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        return spans().modifyResponse(context, attributes);
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        spans().afterExecution(context, attributes);
    }

    @Override
    public Throwable modifyException(Context.FailedExecution context, ExecutionAttributes attributes) {
        return spans().modifyException(context, attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        spans().onExecutionFailure(context, attributes);
    }
}
