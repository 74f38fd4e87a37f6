package dev.cabinet.projection.observability;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.cabinet.projection.contract.CloudEvent;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Continues a command's trace into the projector: the span of applying one event is a child of the context its record
 * carries in the W3C {@code traceparent} header (written by the producer when the command was accepted), and the store
 * calls the projector makes are children of that span. The engine's batches mix many traces, so the per-record span is
 * made here rather than by the connector.
 */
@ApplicationScoped
public class ProjectionTracing {

    private static final TextMapGetter<ConsumerRecord<String, byte[]>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(ConsumerRecord<String, byte[]> record) {
            List<String> keys = new ArrayList<>();
            record.headers().forEach(header -> keys.add(header.key()));
            return keys;
        }

        @Override
        public String get(ConsumerRecord<String, byte[]> record, String key) {
            return record == null ? null : CloudEvent.header(record, key);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final boolean tracingOff;

    ProjectionTracing(OpenTelemetry openTelemetry,
            @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean tracingOff) {
        this.tracer = openTelemetry.getTracer("dev.cabinet.projection");
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
        this.tracingOff = tracingOff;
    }

    /**
     * Runs {@code work} inside a span for applying the record's event; the work is assembled and subscribed with the
     * span current, so the store client's spans (and the context Mutiny propagates to later steps) attach to it.
     */
    public <T> Uni<T> applying(ConsumerRecord<String, byte[]> record, String eventType, String eventId,
            Supplier<Uni<T>> work) {
        if (tracingOff) {
            // No span to build, make current and end for every event while nothing exports it.
            return Uni.createFrom().deferred(work::get);
        }
        return Uni.createFrom().deferred(() -> {
            Span span = tracer.spanBuilder(eventType + " process")
                    .setParent(propagator.extract(Context.root(), record, HEADERS))
                    .setSpanKind(SpanKind.CONSUMER)
                    .setAttribute("messaging.system", "kafka")
                    .setAttribute("messaging.operation.type", "process")
                    .setAttribute("messaging.destination.name", record.topic())
                    .setAttribute("messaging.destination.partition.id", String.valueOf(record.partition()))
                    .setAttribute("messaging.kafka.offset", record.offset())
                    .setAttribute("messaging.message.id", eventId)
                    .setAttribute("cabinet.event.type", eventType)
                    .startSpan();
            return Uni.createFrom().<T>emitter(emitter -> {
                try (Scope ignored = span.makeCurrent()) {
                    Cancellable running = work.get().subscribe().with(emitter::complete, emitter::fail);
                    // A cancelled application (its batch failed, or it stalled and is started again) stops its work.
                    emitter.onTermination(running::cancel);
                }
            }).onTermination().invoke((item, failure, cancelled) -> {
                if (failure != null) {
                    span.recordException(failure);
                    span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
                }
                span.end();
            });
        });
    }

    /**
     * Starts work that many events share (a coalesced write) outside whichever event's span happens to be current, so
     * its store calls belong to no one event's trace.
     */
    public <T> T detached(Supplier<T> work) {
        if (tracingOff) {
            return work.get();
        }
        try (Scope ignored = Context.root().makeCurrent()) {
            return work.get();
        }
    }
}
