package dev.cabinet.projection.execution;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.erasure.DataKeys;
import dev.cabinet.erasure.PersonalFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.contract.CloudEvent;
import dev.cabinet.projection.contract.EventDecoder;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.table.FencedCountException;
import dev.cabinet.projection.contract.UndecodableEventException;
import dev.cabinet.projection.failure.StoreRecovery;
import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.failure.UnappliableEventException;
import dev.cabinet.projection.observability.ProjectionMetrics;
import dev.cabinet.projection.observability.ProjectionTracing;
import dev.cabinet.role.RoleConfig;
import dev.cabinet.shared.InFlight;
import dev.cabinet.table.StoreCallSource;
import dev.cabinet.table.TransientStoreErrors;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * Reads one record as an event and applies it through the projector of its type (the {@link Projector} decides a plan,
 * the {@link PlanExecutor} carries it out): the one way events are applied, whether by the engine or by an operator
 * retrying a parked key. Transient store errors are retried with backoff and
 * jitter; anything else fails as an {@link UnappliableEventException} naming the reason.
 */
@ApplicationScoped
public class EventApplier {

    private static final Logger LOG = Logger.getLogger(EventApplier.class);

    private final Map<String, Projector<?>> projectorByType = new HashMap<>();
    private final PlanExecutor executor;
    private final EventDecoder decoder;
    private final ProjectionMetrics metrics;
    private final ProjectionTracing tracing;
    private final TransientRetries retries;
    private final InFlight applications = new InFlight();
    private final CountTokenRelease tokens;
    private final BatchEndChecks checks;
    private final DataKeys keys;

    EventApplier(Instance<Projector<?>> projectors, PlanExecutor executor, ObjectMapper json, MeterRegistry registry,
            ProjectionTracing tracing, TransientRetries retries, CountTokenRelease tokens, BatchEndChecks checks,
            DataKeys keys) {
        this.tokens = tokens;
        this.checks = checks;
        this.keys = keys;
        Map<String, EventType<?>> catalog = new HashMap<>();
        for (Projector<?> projector : projectors) {
            for (EventType<?> type : projector.eventTypes()) {
                if (projectorByType.put(type.name(), projector) != null) {
                    throw new IllegalStateException("two projectors handle " + type.name());
                }
                catalog.put(type.name(), type);
            }
        }
        this.executor = executor;
        this.decoder = new EventDecoder(catalog, json);
        this.metrics = new ProjectionMetrics(registry);
        this.tracing = tracing;
        this.retries = retries;
        applications.register(registry, "cabinet.projection.applications", "event applications begun and not ended",
                Tags.empty());
    }

    /**
     * An instance that projects loads the event contract at boot (a missing schema fails startup), not on the event
     * loop's first record; an API-only instance never applies events from the log, so it loads the contract only when
     * an operator first retries a parked key.
     */
    static void loadContractWhereProjecting(@Observes StartupEvent event, RoleConfig role,
            Instance<EventApplier> applier) {
        if (role.role().projects()) {
            applier.get().loaded();
        }
    }

    /** Nothing: calling it makes the container create the applier, which loads the contract. */
    void loaded() {
    }

    /** Whether a projector of this instance handles the event type (current or superseded version). */
    public boolean handles(String type) {
        return projectorByType.containsKey(type);
    }

    /**
     * Applies the record, retrying transient errors for as long as they last: the engine never skips an event. The
     * markers of its counts are flagged and their tokens released afterwards, by the time
     * {@link CountTokenRelease#settled()} completes.
     */
    public Uni<Void> apply(ConsumerRecord<String, byte[]> record) {
        return applyOwned(record, 0);
    }

    /**
     * As {@link #apply(ConsumerRecord)}, for the engine, under the owner epoch its partition had when the batch was
     * admitted (0: none): a count that finds a newer owner's epoch fails the event with {@link FencedCountException},
     * neither retried nor dead-lettered: the engine leaves the event, and its partition's later records under that
     * epoch, to the newer owner.
     */
    public Uni<Void> applyOwned(ConsumerRecord<String, byte[]> record, long ownerEpoch) {
        return read(record, Long.MAX_VALUE).chain(event -> applyRead(record, ownerEpoch == 0 ? event
                : event.underEpoch(ownerEpoch), Long.MAX_VALUE));
    }

    /**
     * Applies the record, retrying transient errors at most {@code attempts} times (an operator's request must end),
     * its count tokens released and its checks made ({@link BatchEndChecks}); fails with {@link UnappliableEventException} if it cannot apply, or with the last
     * transient error.
     */
    public Uni<Void> apply(ConsumerRecord<String, byte[]> record, long attempts) {
        return applyOnce(record, attempts).call(() -> Uni.createFrom().completionStage(tokens::settled))
                .call(() -> Uni.createFrom().completionStage(checks::settled));
    }

    private Uni<Void> applyOnce(ConsumerRecord<String, byte[]> record, long attempts) {
        return read(record, attempts).chain(event -> applyRead(record, event, attempts));
    }

    /**
     * The record's event as the projectors see it: its envelope, its sealed values opened (the keys of whoever's data
     * it holds, read with at most {@code attempts} retries; an erased person's values as placeholders), its data
     * checked against the schema and upcast to the current version. Fails with {@link UnappliableEventException} when
     * it cannot be read.
     */
    public Uni<ReceivedEvent> read(ConsumerRecord<String, byte[]> record, long attempts) {
        CloudEvent envelope;
        Set<String> subjects;
        try {
            envelope = decoder.envelope(record);
            subjects = subjects(envelope);
        } catch (UnappliableEventException e) {
            return Uni.createFrom().failure(e);
        }
        if (subjects.isEmpty()) {
            return decoded(record, envelope, envelope.data());
        }
        return retries.retrying(StoreCallSource.of(envelope.type(), () -> keys.forOpening(subjects))
                .onFailure(TransientStoreErrors::isTransient)
                .invoke(e -> LOG.warnf("Retrying the keys of %s (%s): %s", envelope.id(), envelope.type(),
                        e.toString())), attempts)
                .onFailure(e -> !TransientStoreErrors.isTransient(e))
                .transform(e -> new UnappliableEventException("the keys of " + subjects + " could not be read: " + e, e))
                .chain(found -> {
                    JsonNode revealed;
                    try {
                        revealed = PersonalFields.reveal(envelope.data(), decoder.dataClass(envelope), found);
                    } catch (IllegalArgumentException e) {
                        return Uni.createFrom().failure(new UndecodableEventException(e.getMessage()));
                    }
                    return decoded(record, envelope, revealed);
                });
    }

    private static Set<String> subjects(CloudEvent envelope) {
        try {
            return PersonalFields.subjects(envelope.data());
        } catch (IllegalArgumentException e) {
            throw new UndecodableEventException(e.getMessage());
        }
    }

    private Uni<ReceivedEvent> decoded(ConsumerRecord<String, byte[]> record, CloudEvent envelope, JsonNode data) {
        try {
            return Uni.createFrom().item(decoder.decode(record, envelope, data));
        } catch (UnappliableEventException e) {
            return Uni.createFrom().failure(e);
        }
    }

    private Uni<Void> applyRead(ConsumerRecord<String, byte[]> record, ReceivedEvent event, long attempts) {
        Projector<?> projector = projectorByType.get(event.type());
        long started = System.nanoTime();
        metrics.started(record.timestamp());
        // Assembled inside the span: Mutiny's context propagation restores, in every later step, the context that was
        // current when the pipeline was built, so the store calls become children of the event's span.
        return applications.track(tracing.applying(record, event.type(), event.id(), () -> retries.retrying(
                StoreCallSource.of(event.type(), () -> executor.apply(projector, event))
                        .onFailure(TransientStoreErrors::isTransient)
                        .invoke(e -> LOG.warnf("Retrying %s (%s): %s", event.id(), event.type(), e.toString())), attempts)
                .onFailure(e -> !TransientStoreErrors.isTransient(e) && !(e instanceof FencedCountException))
                .transform(e -> new UnappliableEventException("the " + event.type() + " projector failed: " + e, e))
                .invoke(() -> {
                    metrics.applied(event.type(), System.nanoTime() - started);
                    metrics.appliedAged(record.timestamp());
                })));
    }

    /**
     * Throttling, timeouts and 5xx answers are retried with backoff and jitter, without end; nothing is skipped. A wait
     * ends early when {@link StoreRecovery} sees the store answer again after an outage, so a long backoff grown during
     * the outage does not delay the first write after it ({@link TransientRetries}).
     */
    public <T> Uni<T> retryingTransientErrors(Uni<T> call) {
        return retries.retrying(call, Long.MAX_VALUE);
    }

}
