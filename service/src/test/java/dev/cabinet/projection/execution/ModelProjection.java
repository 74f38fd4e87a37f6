package dev.cabinet.projection.execution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.inject.Instance;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Derivation;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.contract.EventDecoder;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.failure.Rejections;
import dev.cabinet.projection.failure.StoreRecovery;
import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.projection.observability.ProjectionTracing;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.table.CounterChange;
import dev.cabinet.table.Key;
import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The projection's real executor, rejections and derivations over a writer of the capacity model's store
 * (dev.cabinet.capacity), built by hand outside CDI. Checks are made when {@link #check()} is called, counts flagged
 * and their tokens released when {@link #settle()} is (the engine's end of a batch), never also after a second, so
 * that the model's calls never depend on the clock.
 */
public final class ModelProjection {

    private final PlanExecutor executor;
    private final SettledRelease tokens;
    private final BatchEndChecks checks;
    private final Map<String, Projector<?>> byType = new HashMap<>();
    private final Map<String, EventType<?>> catalog = new HashMap<>();
    private EventDecoder decoder;

    public ModelProjection(TableWriter writer, Iterable<Projector<?>> projectors, Instance<Derivation> derivations,
            ProjectionConfig config, StoreRecovery recovery, ProjectionTracing tracing) {
        TransientRetries retries = new TransientRetries(config.initialBackoff(), config.maxBackoff(), recovery);
        this.tokens = new SettledRelease(writer, retries, tracing);
        this.checks = new BatchEndChecks(retries, tracing) {
            @Override
            void later(Runnable flush) {
                // made by check() only
            }
        };
        this.executor = new PlanExecutor(writer, new Rejections(writer, new SimpleMeterRegistry()),
                new Derivations(derivations, writer, config), config, tokens, checks);
        for (Projector<?> projector : projectors) {
            for (EventType<?> type : projector.eventTypes()) {
                byType.put(type.name(), projector);
                catalog.put(type.name(), type);
            }
        }
    }

    /** Applies the event as the engine's applier does, once decoded. */
    public Uni<Void> apply(ReceivedEvent event) {
        Projector<?> projector = byType.get(event.type());
        if (projector == null) {
            throw new IllegalArgumentException("no projector handles " + event.type());
        }
        return Uni.createFrom().deferred(() -> executor.apply(projector, event));
    }

    /**
     * Reads the record as the engine does (either CloudEvents mode, the data checked against its schema, a superseded
     * version upcast) and applies it.
     */
    public Uni<Void> apply(ConsumerRecord<String, byte[]> record, ObjectMapper json) {
        if (decoder == null) {
            decoder = new EventDecoder(catalog, json);
        }
        return Uni.createFrom().deferred(() -> apply(decoder.decode(record)));
    }

    /** An item's attribute as the model's readers print it: DynamoDB's JSON form, as the executor packs values. */
    public static JsonNode json(AttributeValue value) {
        return CompactValues.toJson(value);
    }

    /** Makes the checks the events deferred, as a batch's end does. */
    public CompletionStage<Void> check() {
        return checks.settled();
    }

    /** Flags the counts' markers and releases their tokens, as a batch's end does. */
    public CompletionStage<Void> settle() {
        return tokens.settleNow();
    }

    /**
     * The release of the real class, collected until {@link #settleNow()}: one read of the owner epochs of the tokens'
     * partitions, then one write per counter, as a batch's end (the model's store holds no epoch, so none is withheld).
     */
    private static final class SettledRelease extends CountTokenRelease {

        private final TableWriter store;
        private final Map<Key, Set<String>> waiting = new LinkedHashMap<>();
        private final Set<TopicPartition> fenced = new LinkedHashSet<>();
        private final List<CounterChange> unflagged = new ArrayList<>();

        SettledRelease(TableWriter store, TransientRetries retries, ProjectionTracing tracing) {
            super(store, retries, tracing, null);   // its own release reads the epochs (releaseNow)
            this.store = store;
        }

        @Override
        void release(Key counter, String token, TopicPartition from, OwnerFence fence) {
            synchronized (waiting) {
                waiting.computeIfAbsent(counter, c -> new LinkedHashSet<>()).add(token);
                if (fence != null) {
                    fenced.add(new TopicPartition(fence.topic(), fence.partition()));
                }
            }
        }

        @Override
        void flagThenRelease(CounterChange change, TopicPartition from) {
            synchronized (waiting) {
                unflagged.add(change);
            }
        }

        @Override
        public CompletionStage<Void> settled() {
            return CompletableFuture.completedFuture(null);
        }

        /** The flags waiting, together, then the releases, one write per counter. */
        CompletionStage<Void> settleNow() {
            List<CounterChange> flags;
            synchronized (waiting) {
                flags = new ArrayList<>(unflagged);
                unflagged.clear();
            }
            Uni<Void> flagged = flags.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(flags.stream()
                    .map(change -> store.flagCounted(change).invoke(() -> release(change.counter(), change.token(), null,
                            change.fence())))
                    .toList()).andFailFast().replaceWithVoid();
            return flagged.subscribeAsCompletionStage().thenCompose(nothing -> releaseNow());
        }

        private CompletionStage<Void> releaseNow() {
            Map<Key, Set<String>> due;
            List<Key> epochs;
            synchronized (waiting) {
                due = new LinkedHashMap<>(waiting);
                waiting.clear();
                epochs = fenced.stream().map(partition -> ProjectionProgress.key(partition.topic(),
                        partition.partition())).toList();
                fenced.clear();
            }
            if (due.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            return store.readAll(epochs).chain(read -> Uni.join().all(due.entrySet().stream()
                    .map(entry -> store.releaseCountTokens(entry.getKey(), List.copyOf(entry.getValue()))).toList())
                    .andFailFast()).replaceWithVoid()
                    .subscribeAsCompletionStage();
        }
    }
}
