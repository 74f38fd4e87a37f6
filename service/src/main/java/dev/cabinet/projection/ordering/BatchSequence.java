package dev.cabinet.projection.ordering;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import dev.cabinet.projection.observability.BatchesInFlight;

/**
 * The batches of one consumer that are in flight at the same time: each batch's events run as soon as it arrives (their
 * keys' order is {@link KeyedChains}'), but batches <em>finish</em> in arrival order: a batch's progress is recorded and
 * its offsets acknowledged only after every earlier batch has finished, so nothing is committed past unfinished work.
 * {@link #room()} lets the consumer fetch its next batch while fewer than {@code limit} events of its batches are
 * unfinished. The limit counts events, not batches: at a low rate every poll brings a batch of one or two events, and a
 * limit of a few batches made an arriving event wait in the connector's queue until the oldest of them finished
 * (most of its freshness), while a backlog's batches of hundreds of events are held to the same bound as before.
 * <p>
 * It also knows which partitions the consumer has handed over on a rebalance ({@link #handOver}): their next owner
 * may start once the consumer's batches of them have finished, and their records that still arrive are left alone
 * ({@link #admit}) until they are assigned to the consumer again. Per consumer, because a partition one consumer lost
 * may already belong to a sibling in the same process, whose batches of it go on.
 */
public final class BatchSequence {

    private final int limit;
    private int events;
    private final List<CompletableFuture<Void>> waiting = new ArrayList<>();
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);
    /** Partitions handed over and not assigned again. */
    private final Set<TopicPartition> handedOver = new HashSet<>();
    /**
     * The batches admitted and not finished, and those that failed (their {@code finished} done): a failed batch's
     * events are not applied and nothing after it finishes, so the lag and the stuck check go on counting it until its
     * partitions are handed over or assigned again.
     */
    private final Map<CompletableFuture<Void>, InFlight> unfinished = new HashMap<>();

    /** A batch admitted: its records, and what completes once it has finished (or failed). */
    record Admitted(ConsumerRecords<String, byte[]> records, CompletableFuture<Void> finished) {
    }

    /**
     * What is kept of a batch in flight (not its records): what completes once it has finished (or failed), when it was
     * admitted, and its partitions with each one's oldest event (the lag and the readiness check ask how long it has
     * been in flight, {@link #oldestByPartition}).
     */
    private record InFlight(CompletableFuture<Void> finished, Instant admittedAt,
            Map<TopicPartition, Instant> oldestEvents) {

        /** Without the partitions {@code gone}: null when none is left. */
        InFlight without(Collection<TopicPartition> gone) {
            Map<TopicPartition, Instant> left = new HashMap<>(oldestEvents);
            left.keySet().removeAll(gone);
            return left.isEmpty() ? null : new InFlight(finished, admittedAt, Map.copyOf(left));
        }
    }

    BatchSequence(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("at least one event in flight, not " + limit);
        }
        this.limit = limit;
    }

    /**
     * The batch without the records of partitions handed over (the connector drops those it had fetched, on its
     * polling thread, while its event loop may be handing out a batch), counted as unfinished until {@link #add} has
     * finished it; empty when nothing is left of it. One lock with {@link #handOver}: a batch is either seen by a
     * handover or sees the partition handed over.
     */
    synchronized Optional<Admitted> admit(ConsumerRecords<String, byte[]> received) {
        ConsumerRecords<String, byte[]> records = received;
        if (!Collections.disjoint(handedOver, received.partitions())) {
            Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> kept = new LinkedHashMap<>();
            for (TopicPartition partition : received.partitions()) {
                if (!handedOver.contains(partition)) {
                    kept.put(partition, received.records(partition));
                }
            }
            records = new ConsumerRecords<>(kept, Map.of());
        }
        if (records.isEmpty()) {
            return Optional.empty();
        }
        CompletableFuture<Void> finished = new CompletableFuture<>();
        Map<TopicPartition, Instant> oldestEvents = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            oldestEvents.put(partition, Instant.ofEpochMilli(records.records(partition).stream()
                    .mapToLong(ConsumerRecord::timestamp).min().orElse(0)));
        }
        unfinished.put(finished, new InFlight(finished, Instant.now(), Map.copyOf(oldestEvents)));
        return Optional.of(new Admitted(records, finished));
    }

    /**
     * Adds the batch admitted, whose events are applied when {@code applied} completes; {@code finish} (recording its
     * progress) runs once that and every earlier batch have finished. The answer completes when the batch has
     * finished, or fails as the batch or an earlier one failed (a failed batch finishes nothing after it); what
     * depends on it (the batch's acknowledgement) runs before a handover waiting for the batch goes on.
     */
    CompletableFuture<Void> add(Admitted batch, CompletionStage<Void> applied, Supplier<CompletionStage<Void>> finish) {
        int size = batch.records().count();
        CompletableFuture<Void> done;
        synchronized (this) {
            CompletableFuture<Void> previous = last;
            done = applied.toCompletableFuture()
                    .thenCompose(nothing -> previous)
                    .thenCompose(nothing -> finish.get());
            last = done;
            events += size;
        }
        CompletableFuture<Void> answer = new CompletableFuture<>();
        done.whenComplete((nothing, failure) -> {
            synchronized (this) {
                if (failure == null) {
                    unfinished.remove(batch.finished());
                } else {
                    // Failed, it stays (its events are not applied), but not for partitions handed over meanwhile.
                    unfinished.computeIfPresent(batch.finished(), (key, kept) -> kept.without(handedOver));
                }
            }
            // The answer's dependents run here, before the handover's: the order of two callbacks on one future is
            // not one Java promises.
            if (failure == null) {
                answer.complete(null);
            } else {
                answer.completeExceptionally(failure);
            }
            batch.finished().complete(null);
            ended(size);
        });
        return answer;
    }

    /**
     * The consumer lets the partitions go: their records are left alone from now on; completes once every batch of
     * them admitted until now has finished (or failed).
     */
    synchronized CompletableFuture<Void> handOver(Collection<TopicPartition> partitions) {
        handedOver.addAll(partitions);
        forgetFailed(partitions);
        return finishedWith(partitions);
    }

    /**
     * The failed batches are not this consumer's to report for these partitions any more: the partitions moved on (to
     * another owner, or back here with their records fetched again).
     */
    synchronized void forgetFailed(Collection<TopicPartition> partitions) {
        for (Iterator<Map.Entry<CompletableFuture<Void>, InFlight>> batches = unfinished.entrySet().iterator();
                batches.hasNext();) {
            Map.Entry<CompletableFuture<Void>, InFlight> batch = batches.next();
            if (batch.getValue().finished().isDone()) {
                InFlight left = batch.getValue().without(partitions);
                if (left == null) {
                    batches.remove();
                } else {
                    batch.setValue(left);
                }
            }
        }
    }

    /** Completes once every batch of the partitions admitted until now has finished (or failed). */
    synchronized CompletableFuture<Void> finishedWith(Collection<TopicPartition> partitions) {
        return CompletableFuture.allOf(unfinished.values().stream()
                .filter(batch -> !Collections.disjoint(batch.oldestEvents().keySet(), partitions))
                .map(InFlight::finished)
                .toArray(CompletableFuture[]::new));
    }

    /**
     * Adds each partition's oldest batch in flight here (or failed, see {@link #unfinished}) to {@code oldest}, where
     * it is older than the one there: when it was admitted, and its partition's oldest event.
     */
    synchronized void oldestByPartition(Map<TopicPartition, BatchesInFlight.Batch> oldest) {
        for (InFlight batch : unfinished.values()) {
            batch.oldestEvents().forEach((partition, oldestEvent) -> oldest.merge(partition,
                    new BatchesInFlight.Batch(batch.admittedAt(), oldestEvent), BatchSequence::older));
        }
    }

    /** The batch admitted first; of two admitted in the same instant, the one with the older events. */
    private static BatchesInFlight.Batch older(BatchesInFlight.Batch a, BatchesInFlight.Batch b) {
        int started = a.started().compareTo(b.started());
        return started < 0 || started == 0 && !a.oldestEvent().isAfter(b.oldestEvent()) ? a : b;
    }

    /** The consumer has the partitions (again): their records are applied. */
    synchronized void assigned(Collection<TopicPartition> partitions) {
        handedOver.removeAll(partitions);
        forgetFailed(partitions);
    }

    /**
     * Completes when fewer than {@code limit} events are in flight (never fails: a failed batch reports itself). A batch
     * larger than the limit is still taken when the consumer has nothing in flight.
     */
    synchronized CompletionStage<Void> room() {
        if (events < limit) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> room = new CompletableFuture<>();
        waiting.add(room);
        return room;
    }

    /** How many events of unfinished batches there are. */
    synchronized int inFlight() {
        return events;
    }

    private void ended(int size) {
        List<CompletableFuture<Void>> opened;
        synchronized (this) {
            events -= size;
            if (events >= limit || waiting.isEmpty()) {
                return;
            }
            opened = List.copyOf(waiting);
            waiting.clear();
        }
        opened.forEach(room -> room.complete(null));
    }
}
