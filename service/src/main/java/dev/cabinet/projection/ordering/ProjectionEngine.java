package dev.cabinet.projection.ordering;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.cabinet.projection.contract.RecordPlacement;
import dev.cabinet.projection.execution.BatchEndChecks;
import dev.cabinet.projection.execution.CountTokenRelease;
import dev.cabinet.projection.execution.EventApplier;
import dev.cabinet.projection.failure.DeadLetterTopic;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.failure.UnappliableEventException;
import dev.cabinet.projection.observability.BatchesInFlight;
import dev.cabinet.projection.observability.ProjectionLag;
import dev.cabinet.projection.observability.ProjectionMetrics;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.shared.CoalescedWrites;
import dev.cabinet.shared.InFlight;
import dev.cabinet.table.FencedCountException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;

/**
 * Consumes the event topics in batches and applies each event through {@link EventApplier}. Events of one {@link
 * LogKey} (topic and key) are applied one after the other, in log order, also across batches ({@link KeyedChains});
 * different keys run concurrently, and a consumer's next batch starts while its previous ones finish ({@link
 * BatchSequence}). An event that cannot apply goes to the dead-letter topic and parks its key: the key's later events
 * wait behind it, while other keys and the partition's offset move on. A batch is acknowledged, and so its offsets
 * committed, only once every event of it and of every earlier batch is applied or parked, and its progress recorded.
 * Transient store errors are retried without end: nothing is skipped for them.
 */
@ApplicationScoped
public class ProjectionEngine {

    /** The incoming channel; its consumer settings live under {@code mp.messaging.incoming.events}. */
    public static final String CHANNEL = "events";
    /** The sequence of batches handed to {@link #project(ConsumerRecords)} directly, not by a consumer. */
    static final String DIRECT = "direct";

    private final EventApplier applier;
    private final ParkedKeys parkedKeys;
    private final DeadLetterTopic deadLetters;
    private final ProjectionProgress progress;
    private final ProjectionLag lag;
    private final ProjectionConfig config;
    private final ProjectionMetrics metrics;
    private final KeyedChains<LogKey, Boolean> chains = new KeyedChains<>();
    private final Map<String, BatchSequence> sequences = new ConcurrentHashMap<>();
    private final CoalescedWrites<TopicPartition, Long, Void> progressWrites;
    private final ApplyingKeys applying;
    private final CountTokenRelease tokens;
    private final BatchEndChecks checks;
    private final RecordPlacement placement;
    private final OwnerEpochs epochs;
    /** Keys of the batches in flight, by what they wait for: gauges that show where a stalled batch stands. */
    private final InFlight waitingTurn = new InFlight();
    private final InFlight waitingPlace = new InFlight();
    private final InFlight applyingNow = new InFlight();

    /** Completed when the graceful drain begins: a handover waits no longer then. */
    private final CompletableFuture<Void> stopping = new CompletableFuture<>();

    /** The parked keys as last read from the table (null: read before the next batch), and when that read began. */
    private volatile Set<String> parkedRead;
    private volatile long parkedReadAt;
    /** Moves at every assignment: a read of the parked keys begun before it does not become the cached set. */
    private final AtomicLong parkedReadGeneration = new AtomicLong();
    private final AtomicBoolean readingParked = new AtomicBoolean();
    /** Keys this instance parked since: a read begun before a park must not make the engine forget it. */
    private final Set<String> parkedHere = ConcurrentHashMap.newKeySet();

    ProjectionEngine(EventApplier applier, ParkedKeys parkedKeys, DeadLetterTopic deadLetters,
            ProjectionProgress progress, ProjectionLag lag, ProjectionConfig config,
            CountTokenRelease tokens, BatchEndChecks checks, RecordPlacement placement, OwnerEpochs epochs,
            MeterRegistry registry) {
        this.epochs = epochs;
        this.tokens = tokens;
        this.checks = checks;
        this.placement = placement;
        this.applier = applier;
        this.parkedKeys = parkedKeys;
        this.deadLetters = deadLetters;
        this.progress = progress;
        this.lag = lag;
        this.config = config;
        this.metrics = new ProjectionMetrics(registry);
        this.applying = new ApplyingKeys(config.concurrency());
        String meter = "cabinet.projection.streams"; // the meter's name predates the word "key"; dashboards use it
        String described = "keys of the batches in flight by state: waiting for the key's earlier events "
                + "(turn), for one of the projector's places (place), applying";
        waitingTurn.register(registry, meter, described, Tags.of("state", "turn"));
        waitingPlace.register(registry, meter, described, Tags.of("state", "place"));
        applyingNow.register(registry, meter, described, Tags.of("state", "applying"));
        this.progressWrites = CoalescedWrites.of((partition, offsets) -> applier
                .retryingTransientErrors(progress.record(partition, Collections.max(offsets)))
                .subscribeAsCompletionStage());
        lag.trackedBy(this::oldestByPartition);
    }

    /**
     * The projector's Kafka consumers, one per copy of the channel ({@code mp.messaging.incoming.events.concurrency}:
     * copies named {@code events$1}, {@code events$2}, ... each poll their own partitions and apply their own batches).
     */
    public static List<KafkaConsumer<Object, Object>> consumers(KafkaClientService kafka) {
        return kafka.getConsumerChannels().stream()
                .filter(ProjectionEngine::isEventsChannel)
                .flatMap(channel -> kafka.<Object, Object>getConsumers(channel).stream())
                .distinct()
                .toList();
    }

    /** Whether the channel is the events channel or one of its copies ({@code events$1}, ...). */
    static boolean isEventsChannel(String channel) {
        return channel.equals(CHANNEL) || channel.startsWith(CHANNEL + "$");
    }

    /**
     * Starts the batch and lets the consumer fetch the next one as soon as fewer than
     * {@code cabinet.projection.events-in-flight} events of its batches are unfinished; the batch is acknowledged (its
     * offsets committed by the throttled strategy) when it has finished, in order.
     */
    @Incoming(CHANNEL)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> message) {
        IncomingKafkaRecordBatchMetadata<String, byte[]> metadata = message
                .getMetadata(IncomingKafkaRecordBatchMetadata.class).orElseThrow();
        BatchSequence sequence = sequence(metadata.getChannel());
        Set<TopicPartition> leftAlone = ConcurrentHashMap.newKeySet();
        start(metadata.getRecords(), sequence, metadata.getConsumerGroupGenerationId(), leftAlone)
                .whenComplete((done, failure) -> acknowledge(message, failure, leftAlone));
        return Uni.createFrom().completionStage(sequence::room);
    }

    /**
     * Acknowledges the batch (the throttled strategy then commits its partitions' latest offsets), or fails it; a
     * partition left to a newer owner commits nothing from here: that owner applies its records again.
     */
    private static void acknowledge(KafkaRecordBatch<String, byte[]> message, Throwable failure,
            Set<TopicPartition> leftAlone) {
        if (failure != null) {
            message.nack(failure);
        } else if (leftAlone.isEmpty()) {
            message.ack();
        } else {
            // What the batch's own ack does, partition by partition: each partition's latest record.
            message.getLatestOffsetRecords().forEach((partition, last) -> {
                if (!leftAlone.contains(partition)) {
                    last.ack();
                }
            });
        }
    }

    /**
     * Applies the batch, after the batches given before it, and records how far each of its partitions is applied
     * (read-your-writes reads that). Completes when all of that is done.
     */
    Uni<Void> project(ConsumerRecords<String, byte[]> batch) {
        return Uni.createFrom().completionStage(() -> start(batch, sequence(DIRECT), -1, new HashSet<>()));
    }

    /**
     * Forgets the parked keys read so far: the next batch reads them again (new partitions may hold some); applies
     * the partitions' records again, should the consumer ({@code channel}; null: not known) have handed them over; and
     * raises their owner epochs in the group's {@code generation} (negative: not known), which their next batches wait
     * for.
     */
    public void partitionsAssigned(String channel, Collection<TopicPartition> partitions, int generation) {
        epochs.assigned(partitions, generation);
        if (channel != null) {
            sequence(channel).assigned(partitions);
        } else {
            forgetFailedEverywhere(partitions);
        }
        tokens.resume(partitions);
        synchronized (parkedReadGeneration) {
            parkedReadGeneration.incrementAndGet();
            parkedRead = null;
        }
    }

    /**
     * Hands the consumer's partitions over to their next owner: their records that arrive from now on are not applied
     * here, and this waits (at most {@code limit}, and no longer once the graceful drain has begun) until every batch of
     * them the consumer started has finished. Their next owner starts from the last offset committed and applies again
     * what came after, which is idempotent one attempt at a time but not while this instance still applies the same
     * events: two attempts of one count, one finishing and releasing its token while the other has read its marker
     * unflagged, count twice. Should the batches not finish in time (a store outage) or the graceful drain have begun,
     * this instance releases no count token of the partitions' events until they are assigned here again
     * ({@link CountTokenRelease#withhold}; and then none made under the older epoch, see {@link OwnerEpochs}), so that
     * its batches go on beside the next owner harmlessly, whose redo of their events releases the tokens; those that
     * finished during the wait released theirs before the next owner could begin. Answers whether they finished in time.
     */
    public boolean handOver(String channel, Collection<TopicPartition> partitions, Duration limit)
            throws InterruptedException {
        // A consumer not found (PartitionHandover found no channel for it) waits for every consumer's batches of the
        // partitions, and leaves their records to whichever consumer has them: a sibling's must go on.
        CompletableFuture<Void> finished = channel != null ? sequence(channel).handOver(partitions)
                : CompletableFuture.allOf(sequences.values().stream()
                        .map(sequence -> sequence.finishedWith(partitions)).toArray(CompletableFuture[]::new));
        if (channel == null) {
            forgetFailedEverywhere(partitions);
        }
        try {
            CompletableFuture.anyOf(finished, stopping).get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // checked below
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);   // never: neither fails
        }
        if (!finished.isDone()) {
            tokens.withhold(partitions);
        }
        return finished.isDone();
    }

    /** The graceful drain begins: a handover under way or to come waits for nothing more. */
    void stopping() {
        stopping.complete(null);
    }

    /**
     * The graceful drain gave up on batches still unfinished: they go on while their partitions move to another owner
     * (at once for a dynamic member, after the session for a static one), so no count token is released any more.
     */
    void leaveUnfinished() {
        tokens.withholdAll();
    }

    /** Events of this instance's batches not finished yet, over every consumer (the graceful drain waits for 0). */
    int eventsInFlight() {
        return sequences.values().stream().mapToInt(BatchSequence::inFlight).sum();
    }

    /** For a consumer not found: no consumer reports its failed batches of the partitions any more. */
    private void forgetFailedEverywhere(Collection<TopicPartition> partitions) {
        sequences.values().forEach(sequence -> sequence.forgetFailed(partitions));
    }

    /** Each partition's oldest batch in flight, over every consumer: what the lag and the stuck check report. */
    private Map<TopicPartition, BatchesInFlight.Batch> oldestByPartition() {
        Map<TopicPartition, BatchesInFlight.Batch> oldest = new HashMap<>();
        sequences.values().forEach(sequence -> sequence.oldestByPartition(oldest));
        return oldest;
    }

    private BatchSequence sequence(String channel) {
        return sequences.computeIfAbsent(channel, c -> new BatchSequence(config.eventsInFlight()));
    }

    /**
     * Takes every key's turn now, together and in log order, then applies the keys concurrently; the batch
     * finishes (progress recorded, lag updated) after every earlier batch of its sequence.
     */
    /**
     * Completes once the batch, polled in the group's {@code generation} (negative: not known), has finished; by then
     * {@code leftAlone} holds its partitions left to a newer owner, which are not to be acknowledged.
     */
    private CompletableFuture<Void> start(ConsumerRecords<String, byte[]> received, BatchSequence sequence,
            int generation, Set<TopicPartition> leftAlone) {
        Optional<BatchSequence.Admitted> admitted = sequence.admit(received);
        if (admitted.isEmpty()) {
            return CompletableFuture.completedFuture(null);   // all handed over: the acknowledgement commits nothing
        }
        try {
            return run(admitted.get(), sequence, generation, leftAlone);
        } catch (RuntimeException | Error e) {
            // A handover must not wait for a batch that never began; it counts as failed (BatchSequence.unfinished).
            admitted.get().finished().complete(null);
            throw e;
        }
    }

    private CompletableFuture<Void> run(BatchSequence.Admitted admitted, BatchSequence sequence, int generation,
            Set<TopicPartition> leftAlone) {
        ConsumerRecords<String, byte[]> batch = admitted.records();
        lag.started(batch);
        metrics.received(batch);
        Map<LogKey, List<ConsumerRecord<String, byte[]>>> byKey = byKey(batch);
        List<KeyedChains.Turn<Boolean>> turns = chains.next(List.copyOf(byKey.keySet()));
        List<KeyBatch> groups = new ArrayList<>();
        int at = 0;
        for (Map.Entry<LogKey, List<ConsumerRecord<String, byte[]>>> key : byKey.entrySet()) {
            groups.add(new KeyBatch(key.getKey().id(), key.getValue(), turns.get(at++)));
        }
        // The epochs as assigned when the batch is admitted: a reassignment while it runs does not change its fence.
        CompletableFuture<Map<TopicPartition, Long>> owned = epochs.of(batch.partitions(), generation)
                .toCompletableFuture();
        Uni<Void> applied = Uni.createFrom().completionStage(owned)
                .chain(ownerEpochs -> parkedIds().chain(parked -> Multi.createFrom().iterable(groups)
                        .onItem().transformToUni(group -> applyInTurn(group, parked, ownerEpochs))
                        .merge(config.concurrency())
                        .collect().last()))
                .replaceWithVoid()
                // A batch that fails (or stops) before a key's turn ran must still end that turn.
                .onFailure().invoke(failure -> groups.forEach(group -> group.turn.done()
                        .completeExceptionally(failure)))
                .onCancellation().invoke(() -> groups.forEach(group -> group.turn.done()
                        .completeExceptionally(new IllegalStateException("the batch was cancelled"))));
        return sequence.add(admitted, applied.subscribeAsCompletionStage(),
                () -> recordProgress(batch, owned.getNow(Map.of()), leftAlone));
    }

    /**
     * Records how far the batch's partitions are applied (coalesced with other batches' writes), and waits for the
     * count tokens its events released to be removed (so an acknowledged batch leaves none pending) and for the checks
     * its events deferred ({@link BatchEndChecks}); then its lag. A partition left to a newer owner records nothing,
     * and is added to {@code leftAlone}.
     */
    private CompletableFuture<Void> recordProgress(ConsumerRecords<String, byte[]> batch,
            Map<TopicPartition, Long> ownerEpochs, Set<TopicPartition> leftAlone) {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        writes.add(tokens.settled().toCompletableFuture());
        writes.add(checks.settled().toCompletableFuture());
        for (TopicPartition partition : batch.partitions()) {
            if (epochs.leftToNewerOwner(partition, ownerEpochs.get(partition))) {
                leftAlone.add(partition);
                continue;   // what it applied is not all there is: its newer owner records the partition's progress
            }
            List<ConsumerRecord<String, byte[]>> records = batch.records(partition);
            long last = records.get(records.size() - 1).offset();
            writes.add(progressWrites.record(partition, last).toCompletableFuture());
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenRun(() -> lag.finished(batch, leftAlone));
    }

    /** Groups the batch by key, keeping each group in log order. */
    private static Map<LogKey, List<ConsumerRecord<String, byte[]>>> byKey(ConsumerRecords<String, byte[]> batch) {
        Map<LogKey, List<ConsumerRecord<String, byte[]>>> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : batch) {
            groups.computeIfAbsent(LogKey.of(record), g -> new ArrayList<>()).add(record);
        }
        return groups;
    }

    /**
     * Applies a key's records once its earlier records (of earlier batches) are done and one of the projector's
     * {@code cabinet.projection.concurrency} places is free ({@link ApplyingKeys}); ends its turn either way.
     */
    private Uni<Boolean> applyInTurn(KeyBatch group, Set<String> parkedAtStart,
            Map<TopicPartition, Long> ownerEpochs) {
        return waitingTurn.track(Uni.createFrom().completionStage(group.turn.previous()))
                .chain(parkedBefore -> Uni.createFrom().deferred(() -> {
                    CompletableFuture<Void> place = applying.acquire();
                    // Released on every ending, cancellation while still waiting for the place included.
                    return waitingPlace.track(Uni.createFrom().completionStage(place::copy))
                            .chain(() -> applyingNow.track(applyInOrder(group.records, parkedBefore != null
                                    ? parkedBefore : parkedAtStart.contains(group.id) || parkedHere.contains(group.id),
                                    group.id, ownerEpochs)))
                            .onTermination().invoke(() -> applying.release(place));
                }))
                .invoke(parked -> group.turn.done().complete(parked))
                .onFailure().invoke(failure -> group.turn.done().completeExceptionally(failure));
    }

    /** The key's records in order; answers whether the key is parked after them. */
    private Uni<Boolean> applyInOrder(List<ConsumerRecord<String, byte[]>> records, boolean parkedBefore, String id,
            Map<TopicPartition, Long> ownerEpochs) {
        KeyState key = new KeyState(parkedBefore);
        return Multi.createFrom().iterable(records)
                .onItem().transformToUniAndConcatenate(record -> applyOrPark(record, key,
                        ownerEpochs.get(new TopicPartition(record.topic(), record.partition()))))
                .collect().last()
                .map(nothing -> {
                    if (key.parked) {
                        parkedHere.add(id);
                    } else if (!key.misplaced) {
                        // A group on the wrong partition says nothing of the key's own: that partition may have parked
                        // it meanwhile.
                        parkedHere.remove(id);
                    }
                    return key.parked;
                });
    }

    /**
     * Applies the record under its partition's owner epoch ({@code ownerEpoch}; null: none), or parks it behind its
     * key; leaves it alone once the partition has a newer owner, and gives it up when one of its counts finds one. A
     * record on another partition than its key's parks a key of its own ({@link LogKey#misplaced}), before it could
     * wait behind its key's events here, with which it has no order.
     */
    private Uni<Void> applyOrPark(ConsumerRecord<String, byte[]> record, KeyState key, Long ownerEpoch) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        if (epochs.leftToNewerOwner(partition, ownerEpoch)) {
            metrics.leftToNewerOwner(partition);
            return Uni.createFrom().voidItem();
        }
        return placement.misplacement(record).chain(misplaced -> {
            if (misplaced.isPresent()) {
                key.misplaced = true;
                return parkUnappliable(record, LogKey.misplaced(record), misplaced.get());
            }
            if (key.parked) {
                return applier.retryingTransientErrors(parkedKeys.parkBehind(record)).chain(behind -> {
                    key.parked = behind == ParkedKeys.Behind.PARKED;
                    return behind == ParkedKeys.Behind.TO_APPLY ? applyOrPark(record, key, ownerEpoch)
                            : Uni.createFrom().voidItem();
                });
            }
            return applier.applyOwned(record, ownerEpoch == null ? 0 : ownerEpoch)
                    .onFailure(FencedCountException.class).recoverWithItem(e -> {
                        // The rest of its key's records, and of its partition's under this epoch, are left alone too:
                        // a later event of the stream recorded here would hide this one from the newer owner.
                        epochs.fence(partition, ownerEpoch);
                        metrics.leftToNewerOwner(partition);
                        return null;
                    })
                    .onFailure(UnappliableEventException.class).recoverWithUni(e -> {
                        key.parked = true;
                        return parkUnappliable(record, LogKey.of(record), ((UnappliableEventException) e).reason());
                    });
        });
    }

    /** Dead-letters the record with the reason, then parks it under {@code parkedAs}. */
    private Uni<Void> parkUnappliable(ConsumerRecord<String, byte[]> record, LogKey parkedAs, String reason) {
        return deadLetters.send(record, reason, parkedAs)
                .chain(() -> applier.retryingTransientErrors(parkedKeys.park(record, reason, parkedAs)));
    }

    /**
     * The parked keys, read from the table at most once per {@code cabinet.projection.parked-refresh} rather than
     * once per batch: a batch waits for the read only when there is none yet (at start, after an assignment). A key
     * an operator released meanwhile is still listed, which costs one conditional write ({@link ParkedKeys#parkBehind}
     * finds it released and the event is applied); one parked here is in {@link #parkedHere} at once.
     */
    private Uni<Set<String>> parkedIds() {
        Set<String> read = parkedRead;
        if (read == null) {
            return readParked();
        }
        boolean old = System.nanoTime() - parkedReadAt > config.parkedRefresh().toNanos();
        if (old && readingParked.compareAndSet(false, true)) {
            readParked().onTermination().invoke(() -> readingParked.set(false)).subscribe().with(ids -> {
            }, failure -> {
            });
        }
        return Uni.createFrom().item(read);
    }

    private Uni<Set<String>> readParked() {
        return Uni.createFrom().deferred(() -> {
            long started = System.nanoTime();
            long generation = parkedReadGeneration.get();
            return applier.retryingTransientErrors(parkedKeys.parkedIds()).invoke(ids -> {
                // A read that straddles an assignment may miss a key the partition's previous owner parked just
                // before handing it over: it serves the batch that asked, and the next batch reads again.
                synchronized (parkedReadGeneration) {   // the check and the write, with no reset between them
                    if (parkedReadGeneration.get() == generation) {
                        parkedRead = ids;
                        parkedReadAt = started;
                    }
                }
            });
        });
    }

    /** One key's records of a batch, with the key's turn. */
    private record KeyBatch(String id, List<ConsumerRecord<String, byte[]>> records,
            KeyedChains.Turn<Boolean> turn) {
    }

    /** Whether a key is parked, as the engine walks its events of one batch. */
    private static final class KeyState {
        boolean parked;
        /** Its records are on another partition than their key's: they park a key of their own. */
        boolean misplaced;

        KeyState(boolean parked) {
            this.parked = parked;
        }
    }
}
