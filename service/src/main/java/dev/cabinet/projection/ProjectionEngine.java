package dev.cabinet.projection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.EventType;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Consumes the event topics in batches and applies each event through the projector that handles its type. Events of
 * one aggregate key are applied one after the other, in log order; different keys run concurrently. The batch is
 * acknowledged, and so its offsets committed, only once every write of it succeeded. Transient store errors are retried
 * with backoff and jitter, without end: an event is never skipped for them.
 */
@ApplicationScoped
public class ProjectionEngine {

    /** The incoming channel; its consumer settings live under {@code mp.messaging.incoming.events}. */
    public static final String CHANNEL = "events";

    private static final Logger LOG = Logger.getLogger(ProjectionEngine.class);

    private final Map<String, Projector> projectorByType = new HashMap<>();
    private final EventDecoder decoder;
    private final ProjectionConfig config;
    private final ProjectionMetrics metrics;
    private final ProjectionProgress progress;
    private final ProjectionLag lag;

    ProjectionEngine(Instance<Projector> projectors, ObjectMapper json, ProjectionConfig config, MeterRegistry registry,
            ProjectionProgress progress, ProjectionLag lag) {
        Map<String, EventType<?>> catalog = new HashMap<>();
        for (Projector projector : projectors) {
            for (EventType<?> type : projector.eventTypes()) {
                if (projectorByType.put(type.name(), projector) != null) {
                    throw new IllegalStateException("two projectors handle " + type.name());
                }
                catalog.put(type.name(), type);
            }
        }
        this.decoder = new EventDecoder(catalog, json);
        this.config = config;
        this.metrics = new ProjectionMetrics(registry);
        this.progress = progress;
        this.lag = lag;
    }

    /** Applies the batch, then records how far each of its partitions is applied (read-your-writes reads that). */
    @Incoming(CHANNEL)
    public Uni<Void> project(ConsumerRecords<String, byte[]> batch) {
        lag.started(batch);
        return Multi.createFrom().iterable(byAggregateKey(batch))
                .onItem().transformToUni(this::applyInOrder).merge(config.concurrency())
                .collect().last()
                .chain(() -> retryingTransientErrors(progress.record(batch)))
                .invoke(() -> lag.finished(batch))
                .replaceWithVoid();
    }

    /** Groups the batch by topic and key, keeping each group in log order (records without a key group by partition). */
    private static Iterable<List<ConsumerRecord<String, byte[]>>> byAggregateKey(ConsumerRecords<String, byte[]> batch) {
        Map<String, List<ConsumerRecord<String, byte[]>>> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : batch) {
            String group = record.topic() + "|" + (record.key() != null ? "k:" + record.key() : "p:" + record.partition());
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(record);
        }
        return groups.values();
    }

    private Uni<Void> applyInOrder(List<ConsumerRecord<String, byte[]>> records) {
        return Multi.createFrom().iterable(records)
                .onItem().transformToUniAndConcatenate(this::apply)
                .collect().last()
                .replaceWithVoid();
    }

    private Uni<Void> apply(ConsumerRecord<String, byte[]> record) {
        ReceivedEvent event;
        try {
            event = decoder.decode(record);
        } catch (UnknownEventTypeException e) {
            metrics.skipped("unknown-type");
            LOG.warnf("Skipping %s-%d@%d: %s", record.topic(), record.partition(), record.offset(), e.getMessage());
            return Uni.createFrom().voidItem();
        } catch (UndecodableEventException e) {
            metrics.skipped("undecodable");
            LOG.errorf("Skipping %s-%d@%d, it cannot be read: %s", record.topic(), record.partition(), record.offset(),
                    e.getMessage());
            return Uni.createFrom().voidItem();
        }
        Projector projector = projectorByType.get(event.type());
        long started = System.nanoTime();
        return retryingTransientErrors(Uni.createFrom().deferred(() -> projector.apply(event))
                .onFailure(TransientErrors::isTransient).invoke(e -> LOG.warnf("Retrying %s (%s): %s", event.id(),
                        event.type(), e.toString())))
                .invoke(() -> metrics.applied(event.type(), System.nanoTime() - started));
    }

    /** Throttling, timeouts and 5xx answers are retried with backoff and jitter, without end; nothing is skipped. */
    private <T> Uni<T> retryingTransientErrors(Uni<T> call) {
        return call.onFailure(TransientErrors::isTransient).retry()
                .withBackOff(config.initialBackoff(), config.maxBackoff()).withJitter(0.5).indefinitely();
    }
}
