package dev.cabinet.command;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.http.Problems;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Ids;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/**
 * What became of a command's event when the projector did not simply apply it (pattern 18): {@code rejected} (it could
 * not apply, e.g. a comment on a post deleted meanwhile), {@code parked} (it waits behind a dead letter of its key) or
 * {@code discarded} (an operator dropped it while parked), with the reason. 404 means nothing is recorded: the event
 * was applied, is still on its way, or is unknown.
 */
@Path("/commands/{eventId}")
@Produces(MediaType.APPLICATION_JSON)
public class CommandOutcomeResource {

    private final TableReader table;

    CommandOutcomeResource(TableReader table) {
        this.table = table;
    }

    @Operation(operationId = "getCommandOutcome")
    @GET
    public Uni<CommandOutcomeView> getOutcome(@PathParam("eventId") String eventId) {
        Ids.require("eventId", eventId);
        return table.get(KeyPlan.EVENT_OUTCOME.key(eventId)).map(item -> item.map(CommandOutcomeView::of)
                .orElseThrow(() -> Problems.notFound("no outcome is recorded for event " + eventId
                        + ": it was applied, is not projected yet, or is unknown")));
    }
}
