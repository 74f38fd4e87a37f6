package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import software.amazon.awssdk.awscore.DefaultAwsResponseMetadata;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.InterceptorContext;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbResponseMetadata;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/** A store call inside a span: traced while tracing is on, left exactly as it is while it is off. */
class StoreTracingTest {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
            .build();

    @Test
    void offTheCallIsLeftAsItIs() {
        StoreTracing tracing = new StoreTracing(true, () -> {
            throw new AssertionError("tracing that is off never asks for OpenTelemetry");
        });
        Call call = callInsideASpan(tracing);

        assertFalse(tracing.traces());
        assertSame(call.request, call.requestAfter, "the request is untouched");
        assertSame(call.httpRequest, call.httpRequestAfter, "no trace header is added");
        assertTrue(exported.getFinishedSpanItems().stream().noneMatch(span -> span.getName().startsWith("DynamoDb")),
                exported.getFinishedSpanItems().toString());
    }

    @Test
    void onTheCallIsASpan() {
        StoreTracing tracing = new StoreTracing(false, () -> openTelemetry);
        Call call = callInsideASpan(tracing);

        assertTrue(tracing.traces());
        assertNotEquals(call.httpRequest.headers(), call.httpRequestAfter.headers(), "the call carries its trace");
        assertTrue(exported.getFinishedSpanItems().stream().anyMatch(span -> span.getName().equals("DynamoDb.GetItem")),
                exported.getFinishedSpanItems().toString());
    }

    private record Call(SdkRequest request, SdkRequest requestAfter, SdkHttpRequest httpRequest,
            SdkHttpRequest httpRequestAfter) {
    }

    /** One GetItem through every step of the interceptor, with an application span current. */
    private Call callInsideASpan(StoreTracing tracing) {
        Span parent = openTelemetry.getTracer("test").spanBuilder("applying").startSpan();
        try (Scope ignored = parent.makeCurrent()) {
            ExecutionAttributes attributes = new ExecutionAttributes();
            attributes.putAttribute(SdkExecutionAttribute.SERVICE_NAME, "DynamoDb");
            attributes.putAttribute(SdkExecutionAttribute.OPERATION_NAME, "GetItem");
            SdkRequest request = GetItemRequest.builder().tableName("cabinet").build();
            InterceptorContext context = InterceptorContext.builder().request(request).build();
            tracing.beforeExecution(context, attributes);
            SdkRequest requestAfter = tracing.modifyRequest(context, attributes);
            SdkHttpFullRequest httpRequest = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST)
                    .uri(URI.create("http://127.0.0.1:8000/")).putHeader("X-Amz-Target", List.of("GetItem")).build();
            InterceptorContext sending = context.toBuilder().request(requestAfter).httpRequest(httpRequest).build();
            SdkHttpRequest httpRequestAfter = tracing.modifyHttpRequest(sending, attributes);
            tracing.beforeTransmission(sending, attributes);
            tracing.afterExecution(sending.toBuilder().response(GetItemResponse.builder().responseMetadata(
                    DynamoDbResponseMetadata.create(DefaultAwsResponseMetadata.create(Map.of("AWS_REQUEST_ID", "r1"))))
                    .build())
                    .httpResponse(SdkHttpResponse.builder().statusCode(200).build())
                    .build(), attributes);
            return new Call(request, requestAfter, httpRequest, httpRequestAfter);
        } finally {
            parent.end();
        }
    }
}
