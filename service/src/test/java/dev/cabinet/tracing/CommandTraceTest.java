package dev.cabinet.tracing;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.RecentSpans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One trace follows a command: the REST call's server span, the Kafka producer span whose context travels in the
 * record's {@code traceparent} header, the projector's span for applying that event (a child of the producer span,
 * though it runs in another batch-driven flow), and the DynamoDB calls the projector makes, children of its span.
 */
@QuarkusTest
class CommandTraceTest {

    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    private static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");

    @Inject
    RecentSpans spans;

    @Test
    void aCommandsTraceRunsFromTheRequestThroughKafkaIntoTheProjectorsWrites() {
        String user = newUserId();
        String eventId = as(user).body(Map.of("name", "Traced", "email", user + "@example.com"))
                .put("/users/" + user).then().statusCode(202).extract().path("eventId");

        ConsumerRecord<String, byte[]> record = EventLogReader.recordsWithKey(Topics.USERS, user).get(0);
        String traceparent = EventLogReader.header(record, "traceparent");
        assertTrue(traceparent != null && traceparent.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]"),
                "the record carries no W3C trace context: " + traceparent);
        String traceId = traceparent.substring(3, 35);
        String producerSpanId = traceparent.substring(36, 52);

        List<SpanData> trace = await().atMost(PROJECTION_WAIT).until(() -> spans.ofTrace(traceId),
                found -> process(found, eventId).isPresent()
                        && found.stream().anyMatch(s -> s.getKind() == SpanKind.SERVER)
                        && storeCallsUnder(found, process(found, eventId).get()).size() > 0);

        SpanData server = trace.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
        SpanData producer = trace.stream().filter(s -> s.getSpanId().equals(producerSpanId)).findFirst().orElseThrow();
        SpanData projection = process(trace, eventId).orElseThrow();
        assertEquals(SpanKind.PRODUCER, producer.getKind(), "the traceparent names the producer span");
        assertTrue(descendsFrom(trace, producer, server), "the producer span is not within the request's span");
        assertEquals(producerSpanId, projection.getParentSpanId(), "the projector's span continues the record's context");
        assertEquals(Topics.USERS, projection.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")));

        List<SpanData> writes = storeCallsUnder(trace, projection);
        assertFalse(writes.isEmpty());
        assertTrue(writes.stream().allMatch(w -> "DynamoDb".equals(w.getAttributes().get(RPC_SERVICE))), writes.toString());
        System.out.printf("Trace %s: %s%n", traceId, trace.stream()
                .map(s -> s.getKind() + " " + s.getName() + " " + Optional.ofNullable(s.getAttributes().get(RPC_METHOD))
                        .orElse(""))
                .toList());
    }

    private static Optional<SpanData> process(List<SpanData> trace, String eventId) {
        return trace.stream().filter(s -> s.getKind() == SpanKind.CONSUMER && eventId.equals(s.getAttributes().get(MESSAGE_ID)))
                .findFirst();
    }

    /** The store client spans whose parent is the projector's span. */
    private static List<SpanData> storeCallsUnder(List<SpanData> trace, SpanData projection) {
        return trace.stream().filter(s -> s.getKind() == SpanKind.CLIENT
                && s.getParentSpanId().equals(projection.getSpanId())).toList();
    }

    private static boolean descendsFrom(List<SpanData> trace, SpanData span, SpanData ancestor) {
        SpanData current = span;
        while (current != null) {
            if (current.getParentSpanId().equals(ancestor.getSpanId())) {
                return true;
            }
            String parent = current.getParentSpanId();
            current = trace.stream().filter(s -> s.getSpanId().equals(parent)).findFirst().orElse(null);
        }
        return false;
    }
}
