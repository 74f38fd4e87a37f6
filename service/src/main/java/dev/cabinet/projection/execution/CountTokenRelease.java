package dev.cabinet.projection.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.cabinet.projection.failure.TransientRetries;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.projection.observability.ProjectionTracing;
import dev.cabinet.shared.CoalescedWrites;
import dev.cabinet.table.CounterChange;
import dev.cabinet.table.Key;
import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;

/**
 * The last two steps of an exactly-once count ({@link TableWriter#countOnce}), off the events' path: flagging the marker
 * with the counting event's version, then removing the change's token from the counter's pending set. Flags wait for
 * the end of the batch ({@link #settled()}) and go out together; the tokens released then (and those of counts that
 * needed no change) are collected per counter and removed in one write per counter when the batch finishes, when
 * {@link #AT_MOST} of them wait on one counter, or after {@link #LATEST} at the latest; a backlog of one author's posts
 * then costs one write per counter and batch instead of one per post. A token is released only once its marker's flag
 * was written or refused (the marker is gone, or a later event flagged it: either way a redo changes nothing). The
 * engine acknowledges a batch only after {@link #settled()}, so a crash before a flag or a removal redelivers its
 * event, whose redo finds the token still pending (no second change) or the marker flagged, and settles it again.
 * <p>
 * A token made under an owner epoch is removed only while that epoch is still its partition's latest (one consistent
 * read of the partitions' progress items per removal round): once the partition has a newer owner, that owner may have
 * read the marker unflagged just before this instance flagged it, and its change, sent beside its recording, is then
 * refused only by the pending token, which its own redo releases (docs/design.md, "Owner epochs").
 */
@ApplicationScoped
public class CountTokenRelease {

    /** Released tokens that wait on one counter before they are removed anyway: keeps the counter item small. */
    static final int AT_MOST = 25;
    /** How long a released token waits at most when no batch finishes (an operator's retry, a test). */
    static final Duration LATEST = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(CountTokenRelease.class);

    private final CoalescedWrites<Key, Set<String>, Void> writes;
    private final TableWriter store;
    private final TransientRetries retries;
    private final ProjectionTracing tracing;
    private final ProjectionProgress progress;
    /** Per counter, the tokens to remove, each with where the event that made it came from. */
    private final Map<Key, Map<String, Made>> waiting = new HashMap<>();
    /** Changes made whose markers are still to be flagged, in the order they were made. */
    private final List<Unflagged> unflagged = new ArrayList<>();
    /**
     * Flags being written, and removals waiting for their owner epochs, whoever started them: a batch settles only once
     * every one started before is done.
     */
    private final Set<CompletableFuture<Void>> flagging = ConcurrentHashMap.newKeySet();
    /** Whether a flush after {@link #LATEST} is scheduled: one at a time, however many batches settle meanwhile. */
    private boolean flushQueued;
    /** Partitions handed over: the tokens of their events are left pending ({@link #withhold}). */
    private final Set<TopicPartition> withheld = ConcurrentHashMap.newKeySet();
    /** Set once the graceful drain gave up on batches: no token is released any more. */
    private volatile boolean withholdingAll;

    /** A change whose marker is to be flagged, with the partition of the event that made it. */
    private record Unflagged(CounterChange change, TopicPartition from) {
    }

    /** Where a token's event came from: its partition, and the owner epoch it was applied under (null: none). */
    private record Made(TopicPartition from, OwnerFence fence) {
    }

    CountTokenRelease(TableWriter store, TransientRetries retries, ProjectionTracing tracing,
            ProjectionProgress progress) {
        this.store = store;
        this.retries = retries;
        this.tracing = tracing;
        this.progress = progress;
        this.writes = CoalescedWrites.of((counter, tokens) -> tracing.detached(() -> retries
                .retrying(store.releaseCountTokens(counter, tokens.stream().flatMap(Set::stream).toList()),
                        Long.MAX_VALUE)
                .subscribeAsCompletionStage()));
    }

    /**
     * Releases no token of the partitions' events from now on: the partitions are being handed over, and batches of
     * them may still run here (a handover that timed out, partitions lost with the member's session) while their next
     * owner applies the same events. A token this instance released while that owner's attempt had read the marker
     * unflagged would let it count again. A token left pending is always safe: it blocks only its own event's change,
     * and the event, which this instance did not commit, is redone by the next owner, whose redo releases it.
     * (docs/design.md lists what this leaves open.)
     */
    public void withhold(Collection<TopicPartition> partitions) {
        withheld.addAll(partitions);
    }

    /** The partitions are assigned here again: their events' tokens are released as before. */
    public void resume(Collection<TopicPartition> partitions) {
        withheld.removeAll(partitions);
    }

    /** The graceful drain gave up on batches that go on while their partitions move: no token is released any more. */
    public void withholdAll() {
        withholdingAll = true;
    }

    private boolean withheld(TopicPartition from) {
        return withholdingAll || withheld.contains(from);
    }

    /**
     * Whether an event applied from {@code from} under {@code fence} (null: none) settles here: its partition is not
     * withheld, and {@code owned} (the partitions' owner epochs as read; null: they could not be read) shows no newer
     * owner. Otherwise the partition's next owner redoes the event and settles it.
     */
    private boolean settlesHere(TopicPartition from, OwnerFence fence, Map<TopicPartition, Long> owned) {
        return !withheld(from) && (fence == null || owned != null && owned.getOrDefault(from, 0L) <= fence.epoch());
    }

    /**
     * Removes the token from the counter's pending set soon; its marker must already say it was counted. {@code from}
     * is the partition of the event that made it, {@code fence} the owner epoch it was applied under (null: none).
     */
    void release(Key counter, String token, TopicPartition from, OwnerFence fence) {
        if (withheld(from)) {
            return;
        }
        Map<String, Made> full = null;
        boolean queue = false;
        CompletableFuture<Void> taken = new CompletableFuture<>();
        synchronized (this) {
            Map<String, Made> tokens = waiting.computeIfAbsent(counter, c -> new LinkedHashMap<>());
            tokens.put(token, new Made(from, fence));
            if (tokens.size() >= AT_MOST) {
                full = waiting.remove(counter);
                flagging.add(taken);   // as in flagAll
            } else if (!flushQueued) {
                flushQueued = true;
                queue = true;
            }
        }
        if (full != null) {
            try {
                write(Map.of(counter, full));
            } finally {
                done(taken);
            }
        }
        if (queue) {
            CompletableFuture.delayedExecutor(LATEST.toMillis(), TimeUnit.MILLISECONDS).execute(this::flushLate);
        }
    }

    /** Flags the change's marker when the batch ends, then releases its token; {@code from} as for {@link #release}. */
    void flagThenRelease(CounterChange change, TopicPartition from) {
        boolean queue = false;
        synchronized (this) {
            unflagged.add(new Unflagged(change, from));
            if (!flushQueued) {
                flushQueued = true;
                queue = true;
            }
        }
        if (queue) {
            CompletableFuture.delayedExecutor(LATEST.toMillis(), TimeUnit.MILLISECONDS).execute(this::flushLate);
        }
    }

    /**
     * Flags every marker waiting, then removes every token released until now, and completes once that is done (or
     * could not be done): never fails. The engine calls it as each batch finishes.
     */
    public CompletionStage<Void> settled() {
        flagAll();
        // Twice: a flag's handler that fills a counter's removals starts their write (and its epoch read) at once,
        // into flagging, after the first look; the flush's own write is in the answer of flush().
        return CompletableFuture.allOf(flagging.toArray(CompletableFuture[]::new))
                .thenCompose(flagged -> flush())
                .thenCompose(flushed -> CompletableFuture.allOf(flagging.toArray(CompletableFuture[]::new)))
                .thenCompose(started -> writes.settled());
    }

    /**
     * Whether every flag and release asked for is done: nothing waits for a batch's end or the late flush, and nothing
     * is being written. Unlike {@link #settled()} it also covers what a batch still to finish will flag.
     */
    public boolean idle() {
        synchronized (this) {
            if (!unflagged.isEmpty() || !waiting.isEmpty()) {
                return false;
            }
        }
        return flagging.isEmpty() && writes.idle();
    }

    private void flushLate() {
        synchronized (this) {
            flushQueued = false;
        }
        flagAll().thenRun(this::flush);
    }

    /**
     * Writes the flags waiting, all at once, each retried while the store fails transiently; each flag written or
     * refused releases its token. A flag that fails otherwise keeps its token pending, where it changes no later count.
     */
    private CompletableFuture<Void> flagAll() {
        List<Unflagged> due;
        CompletableFuture<Void> taken = new CompletableFuture<>();
        synchronized (this) {
            if (unflagged.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            due = new ArrayList<>(unflagged);
            unflagged.clear();
            // Seen by a settled() from the moment the work leaves the list, not only once its writes have started.
            flagging.add(taken);
        }
        CompletableFuture<Void> all;
        try {
            all = flagEach(due);
        } catch (RuntimeException | Error e) {
            done(taken);
            throw e;
        }
        flagging.add(all);
        // Done once the flags' handlers have passed their tokens on to be released, which a settled() must then find.
        all.whenComplete((nothing, failure) -> {
            flagging.remove(all);
            done(taken);
        });
        return all;
    }

    /** The flags written together; each written or refused releases its token. */
    private CompletableFuture<Void> flagEach(List<Unflagged> due) {
        return CompletableFuture.allOf(due.stream().map(one -> tracing.detached(() -> retries
                .retrying(store.flagCounted(one.change()), Long.MAX_VALUE).subscribeAsCompletionStage())
                .handle((flagged, failure) -> {
                    if (failure == null) {
                        release(one.change().counter(), one.change().token(), one.from(), one.change().fence());
                    } else {
                        LOG.warnf("Could not flag %s as counted in %s: %s", one.change().marker(),
                                one.change().counter(), failure.toString());
                    }
                    return null;
                }).toCompletableFuture()).toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> flush() {
        Map<Key, Map<String, Made>> due;
        CompletableFuture<Void> taken = new CompletableFuture<>();
        synchronized (this) {
            if (waiting.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            due = new HashMap<>(waiting);
            waiting.clear();
            flagging.add(taken);   // as in flagAll
        }
        try {
            return write(due);
        } finally {
            done(taken);
        }
    }

    /** Work taken from the lists is in flight under its own future now, or done. */
    private void done(CompletableFuture<Void> taken) {
        flagging.remove(taken);
        taken.complete(null);
    }

    /**
     * Removes the tokens, per counter in one write, once the partitions they were made under are read to have no newer
     * owner; {@code due} is no longer in {@link #waiting}, so nothing changes it from here on. Tokens of partitions
     * withheld meanwhile, or owned by a newer epoch now, stay pending. Tracked by {@link #flagging} like the flags, so
     * that {@link #settled()} waits for the read.
     */
    private CompletableFuture<Void> write(Map<Key, Map<String, Made>> due) {
        Set<TopicPartition> fenced = new HashSet<>();
        due.values().forEach(tokens -> tokens.values().stream().filter(made -> made.fence() != null)
                .forEach(made -> fenced.add(made.from())));
        CompletableFuture<Map<TopicPartition, Long>> epochs = fenced.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : tracing.detached(() -> retries.retrying(progress.ownerEpochs(fenced), Long.MAX_VALUE)
                        .subscribeAsCompletionStage());
        CompletableFuture<Void> written = epochs.handle((latest, failure) -> {
            if (failure != null) {
                LOG.warnf("Could not read the owner epochs of %s: their count tokens stay pending: %s", fenced,
                        failure.toString());
                latest = null;
            }
            Map<TopicPartition, Long> owned = latest;
            List<CompletableFuture<Void>> removals = new ArrayList<>();
            due.forEach((counter, waited) -> {
                Set<String> tokens = new LinkedHashSet<>();
                waited.forEach((token, made) -> {
                    if (settlesHere(made.from(), made.fence(), owned)) {
                        tokens.add(token);
                    }
                });
                if (!tokens.isEmpty()) {
                    removals.add(writes.record(counter, tokens).<Void>handle((nothing, error) -> {
                        if (error != null) {
                            // Only a non-transient error gets here: the tokens stay in the set, where they change no
                            // later count.
                            LOG.warnf("Could not release count tokens %s on %s: %s", tokens, counter, error.toString());
                        }
                        return null;
                    }).toCompletableFuture());
                }
            });
            return CompletableFuture.allOf(removals.toArray(CompletableFuture[]::new));
        }).thenCompose(removals -> removals);
        flagging.add(written);
        written.whenComplete((nothing, failure) -> flagging.remove(written));
        return written;
    }
}
