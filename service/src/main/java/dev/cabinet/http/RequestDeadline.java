package dev.cabinet.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.RequestScoped;

import org.jboss.logging.Logger;

import dev.cabinet.eventlog.CommandIds;
import dev.cabinet.eventlog.OutcomeUnknownException;
import dev.cabinet.eventlog.SendGate;
import io.smallrye.mutiny.Uni;

/**
 * One request's deadline: {@code cabinet.http.deadline} from when its work starts (the first wait, once its body has
 * arrived). Its Idempotency-Key reservation, its reads and its event's acknowledgement are bounded by it
 * ({@link #bound}); a keyed command keeps the last {@link #keyRecord()} of it to store its key's outcome
 * ({@link #settle}). A wait the client asked for (Consistency-Token, Prefer: wait) moves the deadline by the time that
 * wait took, and only by that ({@link #clientWait}): it extends its own wait, not the others.
 */
@RequestScoped
public class RequestDeadline {

    private static final Logger LOG = Logger.getLogger(RequestDeadline.class);
    /** The shortest bound Mutiny takes (it refuses zero): a deadline already past gives up at once. */
    private static final Duration AT_ONCE = Duration.ofMillis(1);

    private final Duration deadline;
    private final CommandIds ids;
    private final long startedAt = System.nanoTime();
    private volatile long waitedNanos;
    private boolean keyed;

    RequestDeadline(DeadlineConfig config, CommandIds ids) {
        this.deadline = config.deadline();
        this.ids = ids;
    }

    /** This request holds an Idempotency-Key: the end of its deadline is kept for storing the key's outcome. */
    public void keyed() {
        keyed = true;
    }

    /**
     * A wait the client asked for (a Consistency-Token's, Prefer: wait's), bounded by its own limit: the deadline moves
     * by the time it takes, so the rest of the request keeps its own time, no more.
     */
    public <T> Uni<T> clientWait(Uni<T> wait) {
        // `this` is the instance itself, not the request-scoped proxy: the wait may end where the scope is not active.
        return Uni.createFrom().deferred(() -> {
            long began = System.nanoTime();
            return wait.invoke(() -> waitedNanos += System.nanoTime() - began);
        });
    }

    /** What is left for the request's work before it answers. */
    public Duration remaining() {
        return left(keyed ? keyRecord() : Duration.ZERO);
    }

    /**
     * Bounds a request's work by what is left of the deadline. When it passes, a command whose event was already
     * handed to the log fails with {@link OutcomeUnknownException} (its event id, so {@code GET /commands/{eventId}}
     * tells), one that had begun an effect of its own before its event with {@link IncompleteCommandException}, and any
     * other request with {@link DeadlinePassedException}; the gate is closed first, so a command that had not sent its
     * event by then never sends it.
     */
    public <T> Uni<T> bound(Uni<T> work) {
        SendGate gate = ids.gate();   // a plain object: the deadline fires where the request's scope is not active
        Duration budget = deadline;
        return work.ifNoItem().after(positive(remaining())).failWith(() -> gate.close()
                .<RuntimeException>map(eventId -> new OutcomeUnknownException(eventId, null))
                .or(() -> gate.begun().map(effect -> new IncompleteCommandException(effect,
                        new DeadlinePassedException(budget).getMessage())))
                .orElseGet(() -> new DeadlinePassedException(budget)));
    }

    /**
     * Stores what became of the request (its Idempotency-Key's outcome) without letting it delay the answer past the
     * deadline: if the store does not take the write in time, or refuses it, the answer goes out as it is and the write
     * is left to finish on its own (not cancelled); a reservation whose outcome was never stored lapses after 30 s, and
     * its retry then makes the same ids.
     */
    public Uni<Void> settle(Uni<Void> write, String what) {
        CompletableFuture<Void> running = write.subscribeAsCompletionStage();
        return Uni.createFrom().completionStage(running::copy)
                .ifNoItem().after(positive(left(Duration.ZERO))).fail()
                .onFailure().recoverWithItem(e -> {
                    LOG.warnf("The answer went out without %s: %s", what, e.toString());
                    return null;
                });
    }

    /** The end of a keyed command's deadline kept for storing its key's outcome: a tenth of it, at most 500 ms. */
    Duration keyRecord() {
        Duration tenth = deadline.dividedBy(10);
        return tenth.compareTo(Duration.ofMillis(500)) < 0 ? tenth : Duration.ofMillis(500);
    }

    private Duration left(Duration kept) {
        return deadline.plusNanos(waitedNanos).minusNanos(System.nanoTime() - startedAt).minus(kept);
    }

    private static Duration positive(Duration duration) {
        return duration.compareTo(AT_ONCE) < 0 ? AT_ONCE : duration;
    }
}
