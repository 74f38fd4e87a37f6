package dev.cabinet.support;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.reactivestreams.Publisher;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

import dev.cabinet.table.StoreCallMeter;

/**
 * Makes the store refuse chosen calls as DynamoDB does when the IAM policy lacks the permission (dynalite checks no
 * permissions): the request goes out as a harmless ListTables, and its answer is replaced, on the wire side of the
 * client, by DynamoDB's 400 AccessDeniedException, which the SDK then parses like any error from AWS. Registered for
 * tests in {@code %test.quarkus.dynamodb.interceptors}.
 */
public class PermissionDenial implements ExecutionInterceptor {

    /** Named for this generation of classes by StoreCallMeter: each Quarkus restart of a test JVM loads it again. */
    private static final ExecutionAttribute<String> DENIED = StoreCallMeter.attribute("cabinet.test.denied");
    private static volatile Predicate<String> denied = call -> false;

    /** Refuses every call whose operation is {@code operation} and whose request mentions {@code marker}. */
    public static AutoCloseable deny(String operation, String marker) {
        denied = call -> call.startsWith(operation + " ") && call.contains(marker);
        return () -> denied = call -> false;
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        SdkRequest request = context.request();
        if (!denied.test(operation + " " + request)) {
            return context.httpRequest();
        }
        String table = request.getValueForField("TableName", String.class).orElse("*");
        attributes.putAttribute(DENIED, "{\"__type\":\"com.amazon.coral.service#AccessDeniedException\",\"Message\":"
                + "\"User: arn:aws:sts::123456789012:assumed-role/cabinet-test/pod is not authorized to perform: "
                + "dynamodb:" + operation + " on resource: arn:aws:dynamodb:us-east-1:123456789012:table/" + table
                + " because no identity-based policy allows the dynamodb:" + operation + " action\"}");
        return context.httpRequest().toBuilder().putHeader("X-Amz-Target", "DynamoDB_20120810.ListTables").build();
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        String body = attributes.getAttribute(DENIED);
        if (body == null) {
            return context.httpResponse();
        }
        return context.httpResponse().toBuilder().statusCode(400).statusText("Bad Request")
                .removeHeader("x-amz-crc32")
                .putHeader("Content-Type", "application/x-amz-json-1.0")
                .putHeader("Content-Length", Integer.toString(body.getBytes(StandardCharsets.UTF_8).length))
                .build();
    }

    @Override
    public Optional<Publisher<ByteBuffer>> modifyAsyncHttpResponseContent(Context.ModifyHttpResponse context,
            ExecutionAttributes attributes) {
        String body = attributes.getAttribute(DENIED);
        if (body == null || context.responsePublisher().isEmpty()) {
            return context.responsePublisher();
        }
        // Read dynalite's answer to the end (so the connection is released), then hand over the refusal instead.
        return Optional.of(SdkPublisher.adapt(context.responsePublisher().get()).filter(buffer -> false)
                .addTrailingData(() -> List.of(ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)))));
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
            ExecutionAttributes attributes) {
        String body = attributes.getAttribute(DENIED);
        return body == null ? context.responseBody()
                : Optional.of(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }
}
