package dev.cabinet.consistency;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.cabinet.eventlog.EventLogUnavailableException;
import dev.cabinet.eventlog.LogEnds;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.http.DeadlinePassedException;
import dev.cabinet.http.ProblemResponses;
import dev.cabinet.http.Problems;
import dev.cabinet.http.RequestDeadline;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.ReadConsistency;
import io.smallrye.mutiny.Uni;

/**
 * Read-your-writes for queries: a GET with {@value #HEADER} (the {@code position} a command answered) is served only
 * once the projector has applied that position, with strongly consistent reads, so it never answers from before it.
 * If the projector does not get there within {@code cabinet.consistency.max-wait}, the answer is a 503 problem, and so
 * it is when the event at that position is parked behind a dead letter (type {@code parked}); a
 * position the log does not hold (a forged or mistyped token) is a 400 at once. The wait comes on top of the request
 * deadline ({@link RequestDeadline#clientWait}).
 */
public class ConsistencyTokenFilter {

    public static final String HEADER = "Consistency-Token";

    private final LogPositions positions;
    private final ReadConsistency consistency;
    private final ConsistencyConfig config;
    private final LogEnds logEnds;
    private final RequestDeadline deadline;
    private final TableReader table;

    ConsistencyTokenFilter(LogPositions positions, ReadConsistency consistency, ConsistencyConfig config,
            LogEnds logEnds, RequestDeadline deadline, TableReader table) {
        this.positions = positions;
        this.table = table;
        this.deadline = deadline;
        this.logEnds = logEnds;
        this.consistency = consistency;
        this.config = config;
    }

    @ServerRequestFilter
    public Uni<Response> waitForPosition(ContainerRequestContext request) {
        String token = request.getHeaderString(HEADER);
        if (token == null || !HttpMethod.GET.equals(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        LogPosition position;
        try {
            position = LogPosition.parse(token);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().item(ProblemResponses.of(Problems.badRequest(HEADER, e.getMessage()),
                    request.getUriInfo().getPath()));
        }
        consistency.requireStrong();
        LogPosition wanted = position;
        // Checking the token is the request's own work (under its deadline); the wait for the projection is the
        // client's, bounded by max-wait, and moves the deadline by what it took so that the read keeps its time.
        // A broker that does not answer meets the deadline before the admin client's own timeout: say so, as the
        // client's answer would have (event-log-unavailable, not the store's).
        return deadline.bound(logEnds.holds(position))
                .onFailure(DeadlinePassedException.class).transform(EventLogUnavailableException::new)
                .chain(held -> held ? awaitApplied(wanted)
                .chain(applied -> applied ? unlessParked(wanted, token, request)
                        : Uni.createFrom().item(notYet(token, request)))
                : Uni.createFrom().item(ProblemResponses.of(Problems.badRequest(HEADER, "the log holds no event at "
                        + token + ": it is not a position a command answered with"), request.getUriInfo().getPath())));
    }

    private Uni<Boolean> awaitApplied(LogPosition position) {
        return deadline.clientWait(positions.awaitApplied(position, config.maxWait()));
    }

    /**
     * Nothing once the position is applied, unless its event waits behind a dead letter: the partition's progress
     * moves on past a parked key, and a read then would answer from before the event. Asked after the progress was
     * seen there (the position is marked before that), as the request's own work, from the table that answers reads,
     * strongly consistently. A mark is confirmed by its key, still parked over that offset: a projector that stopped
     * between marking a record and parking its key may have applied the record when it came again, and left the mark.
     * The answer names neither the event nor why it was parked: positions are easy to guess, and that is for operators.
     */
    private Uni<Response> unlessParked(LogPosition position, String token, ContainerRequestContext request) {
        return deadline.bound(table.getConsistently(ParkedKeys.positionKey(position.topic(), position.partition(),
                position.offset())).chain(mark -> mark.isEmpty() ? Uni.createFrom().item(false)
                        : table.getConsistently(KeyPlan.PARKED_KEY.key(Items.string(mark.get(),
                                Attributes.PARKED_KEY_ID))).map(key -> key.filter(found -> ParkedKeys.spans(found,
                                        position.offset())).isPresent())))
                .map(parked -> !parked ? null : ProblemResponses.of(503, Problems.TYPE_PREFIX + "parked", "Parked",
                        "the event at " + token + " is parked behind a dead letter and not applied: it is applied "
                                + "when an operator retries its key (GET /commands/{eventId} with the command's "
                                + "event id says why)", request.getUriInfo().getPath(), null));
    }

    private Response notYet(String token, ContainerRequestContext request) {
        return Response.fromResponse(ProblemResponses.of(503, Problems.TYPE_PREFIX + "not-yet-consistent",
                        "Not yet consistent", "the projection has not reached " + token + " within "
                                + config.maxWait().toMillis() + " ms; retry later",
                        request.getUriInfo().getPath(), null)).header("Retry-After", "1").build();
    }
}
