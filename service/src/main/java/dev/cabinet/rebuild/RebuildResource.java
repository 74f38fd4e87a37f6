package dev.cabinet.rebuild;

import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.Problems;
import dev.cabinet.table.TableConfig;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * The operator's side of a blue/green rebuild (see the runbook in docs/design.md): how far a candidate table is, its
 * item-by-item verification against the live table, the cut-over, and the removal of a retired table's read model.
 * Only for tokens with the {@code operator} group.
 */
@Path("/admin/rebuilds/{table}")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Caller.OPERATOR)
public class RebuildResource {

    /** DynamoDB's table name rule. */
    private static final String TABLE_NAME = "[A-Za-z0-9_.-]{3,255}";

    private final Rebuilds rebuilds;
    private final JsonWebToken token;
    private final TableConfig tables;

    RebuildResource(Rebuilds rebuilds, JsonWebToken token, TableConfig tables) {
        this.rebuilds = rebuilds;
        this.token = token;
        this.tables = tables;
    }

    @Operation(operationId = "getRebuild",
            description = "How far a blue/green rebuild into this table "
            + "has come, against the table answering reads (operators).")
    @GET
    public RebuildProgress.Status status(@PathParam("table") String table) {
        return ofExisting(table, () -> rebuilds.status(checked(table)));
    }

    @Operation(operationId = "verifyRebuild",
            description = "Compares the rebuilt table with the table "
            + "answering reads, item by item (operators).")
    @POST
    @Path("/verify")
    public Rebuilds.Verification verify(@PathParam("table") String table) {
        return ofExisting(table, () -> rebuilds.verify(checked(table)));
    }

    @Operation(operationId = "cutOverRebuild",
            description = "Verifies the rebuilt table, then makes it "
            + "answer reads; 409 if it has not caught up or differs (operators).")
    @POST
    @Path("/cut-over")
    public Rebuilds.CutOver cutOver(@PathParam("table") String table) {
        return ofExisting(table, () -> rebuilds.cutOver(checked(table), token.getSubject()));
    }

    @Operation(operationId = "purgeRetiredReadModel",
            description = "Removes the read model from a table that no longer answers reads and that no projector "
            + "writes (after a cut-over and its projector's retirement), so that no erasure made since misses it; "
            + "keeps what the home table holds besides: the data keys, the pointer, the idempotency records, the "
            + "order id reservations. 409 for the table answering reads, this instance's projection target, or a "
            + "table reads left or a projector wrote to within the last minute (operators).")
    @POST
    @Path("/purge")
    public Rebuilds.Purged purge(@PathParam("table") String table) {
        return ofExisting(table, () -> rebuilds.purge(checked(table), token.getSubject(), tables.target()));
    }

    /** What the call answers, or 404 naming the table when there is no such table (a mistyped name is the client's). */
    private static <T> T ofExisting(String table, Supplier<T> call) {
        try {
            return call.get();
        } catch (CompletionException e) {
            if (e.getCause() instanceof ResourceNotFoundException) {
                throw Problems.notFound("table", table);
            }
            throw e;
        }
    }

    /** A table name, of the home table (to cut back) or a rebuild's: no other table is the read model's. */
    private String checked(String table) {
        if (!table.matches(TABLE_NAME)) {
            throw Problems.badRequest("table", "must be a DynamoDB table name (" + TABLE_NAME + ")");
        }
        if (!tables.mayAnswerReads(table)) {
            throw Problems.badRequest("table", "must be the home table " + tables.name() + " or a rebuild's, named "
                    + tables.name() + TableConfig.REBUILD_INFIX + "<suffix>");
        }
        return table;
    }
}
