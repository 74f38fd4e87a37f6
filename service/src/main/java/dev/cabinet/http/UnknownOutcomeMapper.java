package dev.cabinet.http;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import dev.cabinet.eventlog.CommandIds;
import dev.cabinet.eventlog.OutcomeUnknownException;

/**
 * A command the log did not acknowledge in time answers 503 saying its outcome is unknown (it may yet be written),
 * never "not accepted": with the event id to ask {@code GET /commands/{eventId}} about, and the id of what it creates.
 */
public class UnknownOutcomeMapper {

    private static final Logger LOG = Logger.getLogger(UnknownOutcomeMapper.class);

    private final CommandIds ids;

    UnknownOutcomeMapper(CommandIds ids) {
        this.ids = ids;
    }

    @ServerExceptionMapper
    public Response outcomeUnknown(OutcomeUnknownException e, UriInfo uri) {
        LOG.warn(e.getMessage());
        String outcome = "/commands/" + e.eventId();
        return Response.status(503)
                .type(Problem.MEDIA_TYPE)
                .header(HttpHeaders.RETRY_AFTER, "5")
                .entity(new UnknownOutcome(UnknownOutcome.TYPE, "Outcome unknown", 503,
                        "the event log did not acknowledge the command in time, so it may or may not be applied; "
                                + "GET " + outcome + " tells which once the log answers. A retry with the same "
                                + "Idempotency-Key is safe (it reuses the same event and resource ids); without one, a "
                                + "retry may apply the command twice",
                        uri.getPath(), e.eventId(), ids.createdId().orElse(null), outcome))
                .build();
    }
}
