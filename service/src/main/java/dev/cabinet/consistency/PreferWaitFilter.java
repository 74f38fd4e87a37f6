package dev.cabinet.consistency;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.http.AcceptedAnswer;
import dev.cabinet.http.Problem;
import dev.cabinet.http.Problems;
import dev.cabinet.http.RequestDeadline;
import dev.cabinet.idempotency.IdempotencyFilters;
import dev.cabinet.table.Items;
import dev.cabinet.table.query.ReadConsistency;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/**
 * Read-your-writes for commands (RFC 7240): with {@code Prefer: wait=N}, a command's 202 is held until the projector
 * has applied its event, at most N seconds (capped by {@code cabinet.consistency.max-prefer-wait}). Then the answer is
 * 200 with {@code outcome: applied}, or 409 with the reason the projector rejected it; if the projection does not get
 * there in time, it stays 202 with {@code outcome: pending}; an event parked behind a dead letter stays 202 with
 * {@code outcome: parked} and the reason. {@code Preference-Applied} says the wait was honoured. The wait comes on top
 * of the request deadline, which it moves by what it took ({@link RequestDeadline#clientWait}). A wait the store
 * cannot answer (the progress it reads throttled or refused) also ends with the 202 and {@code outcome: pending}.
 */
public class PreferWaitFilter {

    private static final Logger LOG = Logger.getLogger(PreferWaitFilter.class);
    /**
     * RFC 7240's {@code wait} preference: its name in any case, its value a number of seconds, quoted or not (as a
     * preference's value may be); a number of any length, which the configured maximum then cuts.
     */
    private static final Pattern WAIT = Pattern.compile(
            "(?:^|[,;\\s])wait\\s*=\\s*(\"?)(\\d+)\\1(?:$|[,;\\s])", Pattern.CASE_INSENSITIVE);

    /** RFC 7240's answer to {@code Prefer: wait}, which a replay under the same Idempotency-Key repeats. */
    public static final String PREFERENCE_APPLIED = "Preference-Applied";

    private final LogPositions positions;
    private final TableReader table;
    private final ReadConsistency consistency;
    private final ConsistencyConfig config;
    private final RequestDeadline deadline;

    PreferWaitFilter(LogPositions positions, TableReader table, ReadConsistency consistency, ConsistencyConfig config,
            RequestDeadline deadline) {
        this.positions = positions;
        this.deadline = deadline;
        this.table = table;
        this.consistency = consistency;
        this.config = config;
    }

    /**
     * Made before the answer is stored under its {@code Idempotency-Key} (response filters run from the highest
     * priority down): a retry gets the answer the wait ended with.
     */
    @ServerResponseFilter(priority = Priorities.USER + 100)
    public Uni<Void> holdUntilProjected(ContainerRequestContext request, ContainerResponseContext response) {
        Matcher wait = WAIT.matcher(request.getHeaderString("Prefer") == null ? "" : request.getHeaderString("Prefer"));
        if (response.getStatus() != 202 || !(response.getEntity() instanceof AcceptedAnswer accepted) || !wait.find()) {
            return Uni.createFrom().voidItem();
        }
        // Past nine digits (leading zeros aside) the wait is longer than any maximum, and than a long may hold.
        String seconds = wait.group(2).replaceFirst("^0+(?=\\d)", "");
        Duration requested = seconds.length() > 9 ? config.maxPreferWait()
                : Duration.ofSeconds(Long.parseLong(seconds));
        Duration limit = requested.compareTo(config.maxPreferWait()) > 0 ? config.maxPreferWait() : requested;
        LogPosition position = LogPosition.parse(accepted.position());
        // A wait the store cannot answer leaves the 202: the event is in the log, and a 503 would say nothing was
        // changed and free the command's Idempotency-Key, so the client's retry would append the command again.
        Uni<Boolean> projected = positions.awaitApplied(position, limit).onFailure().recoverWithItem(failure -> {
            LOG.debugf("Prefer: wait on %s ended: the projection's progress could not be read (%s)", position, failure);
            return null;
        });
        return deadline.clientWait(projected).chain(applied -> {
            response.getHeaders().putSingle(PREFERENCE_APPLIED, "wait=" + limit.toSeconds());
            if (applied == null || !applied) {
                response.setEntity(Outcome.of(accepted, "pending", (applied == null
                        ? "whether it is projected could not be read now"
                        : "not projected within " + limit.toSeconds() + " s")
                        + "; read with the header Consistency-Token: " + accepted.position()));
                return Uni.createFrom().voidItem();
            }
            consistency.requireStrong();
            // Reading the outcome is the request's own work again: if the store does not answer by the deadline, the
            // answer stays the 202 (the event is in the log), rather than a 503 that would say nothing was changed.
            return deadline.bound(table.get(KeyPlan.EVENT_OUTCOME.key(accepted.eventId()))).invoke(rejection -> {
                if (rejection.isPresent() && !"rejected".equals(Items.string(rejection.get(), "status"))) {
                    // Parked behind a dead letter, or discarded: accepted into the log, but not (yet) applied.
                    response.setEntity(Outcome.of(accepted, Items.string(rejection.get(), "status"),
                            Items.string(rejection.get(), "reason")));
                } else if (rejection.isPresent()) {
                    request.setProperty(IdempotencyFilters.APPENDED, Boolean.TRUE);   // the key keeps this answer
                    response.setStatus(Response.Status.CONFLICT.getStatusCode());
                    response.getHeaders().putSingle("Content-Type", Problem.MEDIA_TYPE);
                    response.setEntity(new Problem(Problems.TYPE_PREFIX + "rejected", "Rejected", 409,
                            Items.string(rejection.get(), "reason"), request.getUriInfo().getPath(), null));
                } else {
                    response.setStatus(Response.Status.OK.getStatusCode());
                    response.setEntity(Outcome.of(accepted, "applied", null));
                }
            }).replaceWithVoid().onFailure().recoverWithNull();
        });
    }
}
