package dev.cabinet.user;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.decision.Refusal;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.shared.Ids;
import io.smallrye.mutiny.Uni;

/** Reads of user profiles; no token needed. */
@Deadline
@Path("/users/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class UserQueryResource {

    private final UserQueries users;
    private final Caller caller;

    UserQueryResource(UserQueries users, Caller caller) {
        this.users = users;
        this.caller = caller;
    }

    @GET
    @Operation(description = "A profile with its `postCount`; `email` only for the user themself; 410 once erased.")
    public Uni<UserView> getProfile(@PathParam("id") String id) {
        Ids.require("id", id);
        return users.findProfile(id)
                .map(profile -> profile.orElseThrow(() -> Problems.notFound("user", id)))
                .invoke(profile -> {
                    if (profile.erased()) {
                        throw Problems.of(Refusal.gone("user", id));
                    }
                })
                .chain(profile -> caller.is(id).map(self -> self ? profile : profile.withoutEmail()));
    }
}
