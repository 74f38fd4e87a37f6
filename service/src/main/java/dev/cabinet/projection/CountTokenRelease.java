package dev.cabinet.projection;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.shared.CoalescedWrites;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableWriter;

/**
 * The last step of an exactly-once count ({@link TableWriter#countOnce}): removing the change's token from the counter's
 * pending set once the marker says it was counted. Nothing waits for it but the end of the batch, so it is off the
 * event's path and collected per counter: the tokens released while a batch runs are removed in one write per counter
 * when the batch finishes ({@link #settled()}), when {@link #AT_MOST} of them wait on one counter, or after
 * {@link #LATEST} at the latest; a backlog of one author's posts then costs one write per counter and batch instead of
 * one per post. The engine acknowledges a batch only after {@link #settled()}, so a crash before a token is removed
 * redelivers its event, whose redo finds the marker flagged and releases the token again: nothing is left pending.
 */
@ApplicationScoped
public class CountTokenRelease {

    /** Released tokens that wait on one counter before they are removed anyway: keeps the counter item small. */
    static final int AT_MOST = 25;
    /** How long a released token waits at most when no batch finishes (an operator's retry, a test). */
    static final Duration LATEST = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(CountTokenRelease.class);

    private final CoalescedWrites<Key, Set<String>, Void> writes;
    private final Map<Key, Set<String>> waiting = new HashMap<>();
    /** Whether a flush after {@link #LATEST} is scheduled: one at a time, however many batches settle meanwhile. */
    private boolean flushQueued;

    CountTokenRelease(TableWriter store, ProjectionConfig config, StoreRecovery recovery, ProjectionTracing tracing) {
        TransientRetries retries = new TransientRetries(config.initialBackoff(), config.maxBackoff(), recovery);
        this.writes = CoalescedWrites.of((counter, tokens) -> tracing.detached(() -> retries
                .retrying(store.releaseCountTokens(counter, tokens.stream().flatMap(Set::stream).toList()),
                        Long.MAX_VALUE)
                .subscribeAsCompletionStage()));
    }

    /** Removes the token from the counter's pending set soon; its marker must already say it was counted. */
    void release(Key counter, String token) {
        Set<String> full = null;
        boolean queue = false;
        synchronized (this) {
            Set<String> tokens = waiting.computeIfAbsent(counter, c -> new LinkedHashSet<>());
            tokens.add(token);
            if (tokens.size() >= AT_MOST) {
                full = waiting.remove(counter);
            } else if (!flushQueued) {
                flushQueued = true;
                queue = true;
            }
        }
        if (full != null) {
            write(counter, full);
        }
        if (queue) {
            CompletableFuture.delayedExecutor(LATEST.toMillis(), TimeUnit.MILLISECONDS).execute(this::flushLate);
        }
    }

    /**
     * Removes every token released until now and completes once that is done (or could not be done): never fails. The
     * engine calls it as each batch finishes.
     */
    public CompletionStage<Void> settled() {
        flush();
        return writes.settled();
    }

    private void flushLate() {
        synchronized (this) {
            flushQueued = false;
        }
        flush();
    }

    private void flush() {
        Map<Key, Set<String>> due;
        synchronized (this) {
            if (waiting.isEmpty()) {
                return;
            }
            due = new HashMap<>(waiting);
            waiting.clear();
        }
        due.forEach(this::write);
    }

    /** {@code tokens} is no longer in {@link #waiting}, so nothing changes it from here on. */
    private void write(Key counter, Set<String> tokens) {
        writes.record(counter, tokens).whenComplete((nothing, failure) -> {
            if (failure != null) {
                // Only a non-transient error gets here: the tokens stay in the set, where they change no later count.
                LOG.warnf("Could not release count tokens %s on %s: %s", tokens, counter, failure.toString());
            }
        });
    }
}
