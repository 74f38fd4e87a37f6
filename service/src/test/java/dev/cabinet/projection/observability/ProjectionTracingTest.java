package dev.cabinet.projection.observability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;

/** The span wrapper passes a cancellation on to the work it wraps, with tracing on and off. */
class ProjectionTracingTest {

    /**
     * The engine cancels an event's application (its batch failed, or the application stalled and is started again):
     * the work inside the span must stop too, or it goes on writing beside the application that replaces it.
     */
    @ParameterizedTest(name = "tracing off: {0}")
    @ValueSource(booleans = {false, true})
    void cancellingTheApplicationCancelsTheWorkInsideTheSpan(boolean tracingOff) {
        ProjectionTracing tracing = new ProjectionTracing(OpenTelemetry.noop(), tracingOff);
        AtomicBoolean workCancelled = new AtomicBoolean();
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>("cabinet.users", 0, 7L, "u1", new byte[0]);

        tracing.applying(record, "cabinet.user.renamed.v1", "e1", () -> Uni.createFrom().<Void>nothing()
                .onCancellation().invoke(() -> workCancelled.set(true)))
                .subscribe().with(nothing -> {
                }, failure -> {
                }).cancel();

        assertTrue(workCancelled.get(), "the work inside the span is cancelled with it");
    }
}
