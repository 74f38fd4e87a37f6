package dev.cabinet.command;

import java.time.Duration;
import java.time.Instant;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.eventlog.EventLogConfig;
import dev.cabinet.eventlog.EventSends;
import dev.cabinet.eventlog.LogSearch;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.http.RequestDeadline;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.ReadConsistency;
import io.smallrye.mutiny.Uni;

/**
 * What became of a command's event. Recorded by the projector when it did not simply apply it (pattern 18):
 * {@code rejected} (it could not apply, e.g. a comment on a post deleted meanwhile), {@code parked} (it waits behind a
 * dead letter of its key) or {@code discarded} (an operator dropped it while parked), with the reason. For an event this
 * instance sent lately (e.g. one whose command answered 503 outcome-unknown): {@code pending} (the producer still tries,
 * or the log cannot be read yet), {@code appended} (in the log, not projected yet), {@code applied}, or
 * {@code never-appended}, only once that is certain: every send failed, the producer's request timeout has passed since,
 * and a read of the log from the first attempt (here, or elsewhere before a retry with the same Idempotency-Key) to its
 * end did not find it. 404 means nothing is known here: the event was applied long ago, was sent by another instance,
 * or is unknown.
 */
@Deadline
@Path("/commands/{eventId}")
@Produces(MediaType.APPLICATION_JSON)
public class CommandOutcomeResource {

    /** What is left of the deadline to answer once a search of the log has been given up. */
    private static final Duration ANSWER_TIME = Duration.ofMillis(100);

    private final TableReader table;
    private final EventSends sends;
    private final LogSearch log;
    private final ProjectionProgress progress;
    /**
     * Past this, a produce request the broker took before the send failed has been written or dropped, and what was
     * written is below the high watermark, where a search of the log sees it.
     */
    private final Duration settle;
    private final RequestDeadline deadline;
    private final ReadConsistency consistency;

    CommandOutcomeResource(TableReader table, EventSends sends, LogSearch log, ProjectionProgress progress,
            @ConfigProperty(name = "mp.messaging.outgoing.events-out.request.timeout.ms", defaultValue = "30000")
            long requestTimeoutMs, EventLogConfig events, RequestDeadline deadline, ReadConsistency consistency) {
        this.deadline = deadline;
        this.consistency = consistency;
        this.table = table;
        this.sends = sends;
        this.log = log;
        this.progress = progress;
        this.settle = Duration.ofMillis(requestTimeoutMs).plus(events.replicaLag());
    }

    @Operation(operationId = "getCommandOutcome",
            description = "What became of a command's event: "
            + "`rejected`, `parked` or `discarded` with the reason; for an event this instance sent in the last "
            + "hour, `pending`, `appended`, `applied` or `never-appended`; 404 when nothing is known.")
    @GET
    public Uni<CommandOutcomeView> getOutcome(@PathParam("eventId") String eventId) {
        Ids.require("eventId", eventId);
        Duration searchFor = deadline.remaining().minus(ANSWER_TIME);
        // Consistent: the projector writes an outcome before its partition's progress, so an outcome read stale and
        // then the progress read fresh (below) would answer "applied" for an event it rejected or parked.
        consistency.requireStrong();
        return table.get(KeyPlan.EVENT_OUTCOME.key(eventId)).chain(item -> item.isPresent()
                ? Uni.createFrom().item(CommandOutcomeView.of(item.get()))
                : sends.find(eventId).map(sent -> resolve(sent, searchFor)).orElseThrow(() -> Problems.notFound(
                        "no outcome is known for event " + eventId + ": it was applied, is not projected yet, or is "
                                + "unknown here")));
    }

    private Uni<CommandOutcomeView> resolve(EventSends.Sent sent, Duration searchFor) {
        if (sent.position() != null) {
            return progress.isApplied(sent.position()).map(applied -> CommandOutcomeView.of(sent,
                    applied ? "applied" : "appended", applied ? null : "in the log, not projected yet"));
        }
        if (sent.inProducer() > 0) {
            return Uni.createFrom().item(CommandOutcomeView.of(sent, "pending", "the producer is still delivering it"));
        }
        if (Instant.now().isBefore(sent.lastFailedAt().plus(settle))) {
            return Uni.createFrom().item(CommandOutcomeView.of(sent, "pending",
                    "its send failed moments ago; the broker may still write it"));
        }
        // A search of the log can take longer than the request may: stopped a moment before the deadline, the event is
        // still pending (rather than the deadline's 503), as when the log cannot be read.
        Duration budget = searchFor.compareTo(ANSWER_TIME) < 0 ? ANSWER_TIME : searchFor;
        return log.find(sent.topic(), sent.key(), sent.eventId(), sent.searchFrom(), budget)
                .ifNoItem().after(budget)
                .failWith(() -> new IllegalStateException("not read to its end within the request's deadline"))
                .chain(found -> {
                    if (found.isEmpty()) {
                        return Uni.createFrom().item(CommandOutcomeView.of(sent, "never-appended",
                                "the log does not hold it and no send of it is left; the command had no effect"));
                    }
                    sends.found(sent.eventId(), found.get());
                    return resolve(sends.find(sent.eventId()).orElseThrow(), searchFor);
                })
                .onFailure().recoverWithItem(e -> CommandOutcomeView.of(sent, "pending",
                        "the log cannot be read now (" + e.getMessage() + "); ask again later"));
    }
}
