package dev.cabinet.user;


import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import dev.cabinet.auth.Caller;
import dev.cabinet.decision.Decision;
import dev.cabinet.erasure.DataKeys;
import dev.cabinet.eventlog.CommandIds;
import dev.cabinet.eventlog.OutcomeUnknownException;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.IncompleteCommandException;
import dev.cabinet.http.OpenApiContract;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.TransientStoreErrors;
import dev.cabinet.user.UserDecisions.ChangeProfile;
import dev.cabinet.user.UserDecisions.EraseUser;
import dev.cabinet.user.UserDecisions.PutProfile;
import dev.cabinet.user.UserEvent.UserErased;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** Commands on user profiles: a user registers, replaces or changes their own profile, or erases themself. */
@Deadline
@Path("/users/{id}")
@Authenticated
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class UserCommandResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final UserQueries users;
    private final DataKeys keys;
    private final CommandIds ids;

    UserCommandResource(CommandAnswers answers, Caller caller, UserQueries users, DataKeys keys, CommandIds ids) {
        this.answers = answers;
        this.caller = caller;
        this.users = users;
        this.keys = keys;
        this.ids = ids;
    }

    /** Registers the caller's profile, or replaces the fields of an existing one. */
    @PUT
    @Operation(description = "Registers the caller's own profile, or replaces its `name`, `email` and optional "
            + "`avatarUrl`.")
    public Uni<Response> putProfile(@PathParam("id") String id, @Valid @NotNull ProfileRequest body) {
        String actor = caller.requireSelf(Ids.require("id", id));
        return users.findProfile(id)
                .map(existing -> UserDecisions.putProfile(new PutProfile(id, body, Timestamps.format(answers.now())),
                        existing.orElse(null)))
                .chain(decision -> answers.accepted(decision, actor, id, "/users/" + id));
    }

    /**
     * Erases a person, asked by them or by an operator: their data key is destroyed first, so that everything sealed
     * under it reads as erased from then on, and {@code cabinet.user.erased.v1} then has every copy replaced. A failure
     * once the destruction has begun answers {@code incomplete}, never "nothing was changed": the key may be gone, and
     * the same request again completes the erasure (the destruction is idempotent).
     */
    @DELETE
    @Operation(description = "Erases a person, by themself or an operator: their data in the log becomes unreadable "
            + "and the read model forgets it (docs/erasure.md).")
    @APIResponse(responseCode = "503", description = OpenApiContract.COMMAND_UNAVAILABLE + OpenApiContract.INCOMPLETE)
    public Uni<Response> erase(@PathParam("id") String id) {
        Ids.require("id", id);
        return caller.requireSelfOrRole(id, Caller.OPERATOR, "erase").chain(actor -> users.findProfile(id)
                .map(existing -> UserDecisions.erase(new EraseUser(id, Timestamps.format(answers.now())),
                        existing.orElse(null)))
                .chain(decision -> decision instanceof Decision.Accept<?> accept
                        ? destroyThenAccept(id, (UserErased) accept.event(), decision, actor)
                        : answers.accepted(decision, actor, id, "/users/" + id)));
    }

    private Uni<Response> destroyThenAccept(String id, UserErased erased, Decision decision, String actor) {
        String effect = "the data key of " + id + " destroyed";
        ids.gate().begin(effect);
        return keys.destroy(id, erased.erasedAt()).invoke(() -> users.forget(id))
                .chain(() -> answers.accepted(decision, actor, id, "/users/" + id))
                // A refused permission is the operators' (a 503 naming none, the log naming it); any other failure is
                // named by its kind only: its message may hold an ARN, an account or a table.
                .onFailure(failure -> !(failure instanceof OutcomeUnknownException
                        || failure instanceof IncompleteCommandException
                        || TransientStoreErrors.isAccessDenied(failure)))
                .transform(failure -> new IncompleteCommandException(effect, failure.getClass().getSimpleName()));
    }

    /** Changes some fields of the caller's registered profile. */
    @PATCH
    @Operation(description = "Changes some fields of the caller's own profile.")
    public Uni<Response> changeProfile(@PathParam("id") String id, @Valid @NotNull ProfileChangeRequest body) {
        String actor = caller.requireSelf(Ids.require("id", id));
        return users.findProfile(id)
                .map(existing -> UserDecisions.changeProfile(new ChangeProfile(id, body), existing.orElse(null)))
                .chain(decision -> answers.accepted(decision, actor, id, "/users/" + id));
    }
}
