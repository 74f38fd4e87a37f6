package dev.cabinet.deadletter;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.shared.Ids;
import io.smallrye.mutiny.Uni;

/**
 * The operator's view of dead letters: the parked keys with their reasons, and retrying or discarding them once the
 * cause is fixed. Only callers whose token has the {@code operator} group may use it.
 */
@Deadline
@Path("/admin/parked-keys")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Caller.OPERATOR)
public class ParkedKeyResource {

    private final ParkedKeys parkedKeys;
    private final ParkedKeyRecovery recovery;
    private final JsonWebToken token;

    ParkedKeyResource(ParkedKeys parkedKeys, ParkedKeyRecovery recovery, JsonWebToken token) {
        this.parkedKeys = parkedKeys;
        this.recovery = recovery;
        this.token = token;
    }

    /** Every parked key, oldest parking first (parked keys are incidents: few, and all of them matter). */
    @Operation(operationId = "listParkedKeys",
            description = "Every parked key: topic, partition, "
            + "record key, first and last parked offset, the reason and the event that failed (operators).")
    @GET
    public Uni<ParkedKeyList> list() {
        return parkedKeys.keys().map(items -> new ParkedKeyList(items.stream()
                .map(item -> ParkedKeyView.of(item, null))
                .sorted((a, b) -> String.valueOf(a.parkedAt()).compareTo(String.valueOf(b.parkedAt())))
                .toList()));
    }

    @Operation(operationId = "getParkedKey",
            description = "One parked key with its waiting events, "
            + "oldest first (operators).")
    @GET
    @Path("/{id}")
    public Uni<ParkedKeyView> get(@PathParam("id") String id) {
        Ids.require("id", id);
        return parkedKeys.key(id).chain(key -> key.isEmpty()
                ? Uni.createFrom().failure(Problems.notFound("parked key", id))
                : parkedKeys.events(id).map(events -> ParkedKeyView.of(key.get(),
                        events.stream().map(ParkedKeyView.ParkedEventView::of).toList())));
    }

    /** Applies the parked events in log order (after a fix was deployed); 409 names the event that still fails. */
    @Operation(operationId = "retryParkedKey",
            description = "After a fix is deployed: applies the "
            + "parked events in log order and releases the key; 409 names an event that still cannot apply "
            + "(operators).")
    @POST
    @Path("/{id}/retry")
    public RecoveryResult retry(@PathParam("id") String id) {
        Ids.require("id", id);
        return recovery.retry(id, token.getSubject());
    }

    /** Discards all parked events of the key ({@code events=all}), or only the one that failed ({@code events=first}). */
    @Operation(operationId = "discardParkedKey",
            description = "Drops the parked events (`events=all`) "
            + "or only the one that failed (`events=first`) and releases the key; each dropped event's outcome "
            + "becomes `discarded` (operators).")
    @POST
    @Path("/{id}/discard")
    public RecoveryResult discard(@PathParam("id") String id,
            @QueryParam("events") @DefaultValue("all") String events) {
        Ids.require("id", id);
        if (!events.equals("all") && !events.equals("first")) {
            throw Problems.badRequest("events", "must be all or first");
        }
        return recovery.discard(id, events.equals("first"), token.getSubject());
    }

    /** The parked keys. */
    public record ParkedKeyList(List<ParkedKeyView> items) {
    }
}
