package dev.cabinet.rebuild;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.Problems;
import dev.cabinet.shared.Ids;

/**
 * The operator's rebuild of one aggregate's items from its events (see "Rebuilding one stream" in docs/design.md),
 * beside the blue/green rebuild of the whole table. Only for tokens with the {@code operator} group.
 */
@Path("/admin/rebuilds/streams")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Caller.OPERATOR)
public class StreamRebuildResource {

    /** Kafka's topic name rule. */
    private static final String TOPIC_NAME = "[A-Za-z0-9._-]{1,249}";

    private final StreamRebuilds rebuilds;
    private final JsonWebToken token;

    StreamRebuildResource(StreamRebuilds rebuilds, JsonWebToken token) {
        this.rebuilds = rebuilds;
        this.token = token;
    }

    /** Resets the stream's items and applies its events again, in log order; answers what was done. */
    @Operation(operationId = "rebuildStream",
            description = "Rebuilds one aggregate's items in the live "
            + "table from its events, through the live projectors, and answers what it did (operators; "
            + "docs/design.md, \"Rebuilding one stream\").")
    @POST
    @Path("/{topic}/{key}")
    public StreamRebuilds.StreamRebuild rebuild(@PathParam("topic") String topic, @PathParam("key") String key) {
        if (!topic.matches(TOPIC_NAME)) {
            throw Problems.badRequest("topic", "must be a Kafka topic name (" + TOPIC_NAME + ")");
        }
        Ids.require("key", key);
        return rebuilds.rebuild(topic, key, token.getSubject());
    }
}
