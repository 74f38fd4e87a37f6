package dev.cabinet.projection.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Put;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.projection.observability.ProjectionTracing;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;
import io.smallrye.mutiny.Uni;

/**
 * Removes the steps an event recorded on its stream ({@code pendingSteps}, kept for a redo after a crash) once they are
 * done, when they write a person's data ({@link KeyPlan#PERSONAL_ATTRIBUTES}: a comment's text and its author's name on
 * a post's root, a member's name on a group's). There an erasure could not reach it: the recorded steps stay until the
 * stream's next event, which for a quiet post or group never comes. The removal waits for the end of the batch, after
 * the event's checks and count flags (a redo still needs the steps until then), and is made only while the event is
 * still its stream's latest (a condition on the version it recorded). It is left to the partition's next owner when the
 * partition was handed over or, for an event that counted, has a newer owner epoch (the event's count token may then
 * still be pending, and the next owner's redo of the event releases it, then removes the record in turn), and made at
 * a later batch's end when a check of the stream still waits. A stream whose next event comes in the same flush is
 * written once, for its latest. Events whose steps carry no such data keep them until their stream's next event:
 * removing those too would cost a write unit per event for nothing. Its {@link #settled()} is the end of a batch for the
 * engine and the stream rebuilds: the checks, the count tokens, then these removals.
 */
@ApplicationScoped
public class RecordedStepsRelease {

    /** How long a removal waits at most when no batch finishes (an operator's retry, a stream's rebuild). */
    static final Duration LATEST = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(RecordedStepsRelease.class);

    private final TableWriter store;
    private final TransientRetries retries;
    private final ProjectionTracing tracing;
    private final CountTokenRelease tokens;
    private final BatchEndChecks checks;
    private final ProjectionProgress progress;
    /** The latest event done per item its steps are recorded on, in the order they were done. */
    private final Map<Key, Done> done = new LinkedHashMap<>();
    /** Removals under way, whoever started them: a batch settles only once every one started before is done. */
    private final Set<CompletableFuture<Void>> removing = ConcurrentHashMap.newKeySet();
    private boolean flushQueued;

    /**
     * An event whose steps are done: where they are recorded, its version there, its partition, and the owner epoch it
     * was applied under when it counted (null: none, or it made no count).
     */
    record Done(Key recordedOn, String versionAttribute, long version, TopicPartition from, OwnerFence fence) {
    }

    RecordedStepsRelease(TableWriter store, TransientRetries retries, ProjectionTracing tracing,
            CountTokenRelease tokens, BatchEndChecks checks, ProjectionProgress progress) {
        this.store = store;
        this.retries = retries;
        this.tracing = tracing;
        this.tokens = tokens;
        this.checks = checks;
        this.progress = progress;
    }

    /** Whether any of the steps writes a person's data, which then must not outlive the steps on the stream (pure). */
    public static boolean carryPersonalData(List<Step> steps) {
        Set<String> personal = KeyPlan.PERSONAL_ATTRIBUTES;
        return steps.stream().anyMatch(step -> step instanceof Write write
                && personal.stream().anyMatch(write.update()::mentions)
                || step instanceof Put put && personal.stream().anyMatch(put.item()::containsKey));
    }

    /**
     * The event's steps are all done, on its stream's root (or, for a deletion, its tombstone): their record is removed
     * when the batch ends if they carry a person's data.
     */
    void done(StreamTarget target, boolean deletesRoot, List<Step> steps, ReceivedEvent event) {
        if (target.isNone() || !carryPersonalData(steps)) {
            return;
        }
        Key recordedOn = PlanExecutor.recordedOn(target, deletesRoot);
        // Only a count leaves work for a newer owner's redo (its token's release): no other event needs its epoch read.
        boolean counts = steps.stream().anyMatch(Count.class::isInstance);
        queue(new Done(recordedOn, target.stream().versionAttribute(), event.version(),
                new TopicPartition(event.position().topic(), event.position().partition()),
                counts ? event.fence() : null));
    }

    private void queue(Done finished) {
        boolean schedule = false;
        synchronized (this) {
            done.merge(finished.recordedOn(), finished, (was, now) -> now.version() >= was.version() ? now : was);
            if (!flushQueued) {
                flushQueued = true;
                schedule = true;
            }
        }
        if (schedule) {
            later(this::flushLate);
        }
    }

    /**
     * The end of a batch: the checks due are made and the count flags and token releases due are written
     * ({@link BatchEndChecks#settled}, {@link CountTokenRelease#settled}), then the records of every event done until
     * now are removed (those events' checks and flags were among them); completes when all that is done or could not
     * be, and every removal started before it too: never fails. The engine calls it as each batch finishes, and
     * acknowledges the batch after it.
     */
    public CompletionStage<Void> settled() {
        List<Done> due;
        List<CompletableFuture<Void>> before;
        CompletableFuture<Void> removed = new CompletableFuture<>();
        synchronized (this) {
            due = new ArrayList<>(done.values());
            done.clear();
            before = new ArrayList<>(removing);
            if (!due.isEmpty()) {
                // Seen by a settled() from the moment the work leaves the map, not only once its writes have started.
                removing.add(removed);
            }
        }
        CompletableFuture<Void> ended = CompletableFuture.allOf(tokens.settled().toCompletableFuture(),
                checks.settled().toCompletableFuture());
        if (!due.isEmpty()) {
            ended.thenCompose(settled -> removeAll(due)).whenComplete((nothing, failure) -> {
                removing.remove(removed);
                removed.complete(null);
            });
        }
        before.add(due.isEmpty() ? ended : removed);   // removed completes after ended
        return CompletableFuture.allOf(before.toArray(CompletableFuture[]::new));
    }

    /** Schedules {@code flush} after {@link #LATEST}; the capacity model, kept off the clock, does not. */
    void later(Runnable flush) {
        CompletableFuture.delayedExecutor(LATEST.toMillis(), TimeUnit.MILLISECONDS).execute(flush);
    }

    private void flushLate() {
        synchronized (this) {
            flushQueued = false;
        }
        settled();
    }

    /**
     * The removals, once the owner epochs of the fenced events' partitions are read (none read when no event was
     * fenced): an event whose partition was handed over, or has a newer owner now, is left to that owner's redo; one
     * whose stream still has a check waiting goes back to wait for a later batch's end.
     */
    private CompletableFuture<Void> removeAll(List<Done> due) {
        Set<TopicPartition> fenced = new HashSet<>();
        due.stream().filter(finished -> finished.fence() != null).forEach(finished -> fenced.add(finished.from()));
        CompletableFuture<Map<TopicPartition, Long>> epochs = fenced.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : ownerEpochs(fenced).toCompletableFuture();
        return epochs.handle((owned, failure) -> {
            if (failure != null) {
                LOG.warnf("Could not read the owner epochs of %s: the steps recorded by their events stay: %s", fenced,
                        failure.toString());
            }
            List<CompletableFuture<Void>> removals = new ArrayList<>();
            for (Done finished : due) {
                if (!tokens.settlesHere(finished.from(), finished.fence(), owned)) {
                    continue;
                }
                if (!checks.waitingOn(finished.recordedOn()).isEmpty()) {
                    queue(finished);   // a redo would make the check from the record: removed once it is made
                    continue;
                }
                removals.add(remove(finished));
            }
            return CompletableFuture.allOf(removals.toArray(CompletableFuture[]::new));
        }).thenCompose(removals -> removals);
    }

    /** The partitions' owner epochs as the store holds them now; the capacity model reads them through its store. */
    CompletionStage<Map<TopicPartition, Long>> ownerEpochs(Set<TopicPartition> partitions) {
        return tracing.detached(() -> retries.retrying(progress.ownerEpochs(partitions), Long.MAX_VALUE)
                .subscribeAsCompletionStage());
    }

    private CompletableFuture<Void> remove(Done finished) {
        ItemUpdate removal = ItemUpdate.of(finished.recordedOn())
                .set(Attributes.PENDING_STEPS, null)
                .onlyIfEquals(finished.versionAttribute(), finished.version());
        // Counted as the batch's work, as the count flags and token releases are, not the event's.
        return tracing.detached(() -> retries.retrying(Uni.createFrom().deferred(() -> store.update(removal)),
                Long.MAX_VALUE))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("Could not remove the steps recorded on %s (they stay until its stream's next event): %s",
                            finished.recordedOn(), failure.toString());
                    return false;
                })
                .replaceWithVoid().subscribeAsCompletionStage();
    }
}
