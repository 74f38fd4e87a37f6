package dev.cabinet.user;

import java.time.Instant;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.cabinet.auth.Caller;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.Problems;
import dev.cabinet.table.Ids;
import dev.cabinet.table.Timestamps;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** Commands on user profiles: a user registers, replaces or changes their own profile. */
@Path("/users/{id}")
@Authenticated
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class UserCommandResource {

    private final EventLog log;
    private final Caller caller;
    private final UserQueries users;

    UserCommandResource(EventLog log, Caller caller, UserQueries users) {
        this.log = log;
        this.caller = caller;
        this.users = users;
    }

    /** Registers the caller's profile, or replaces the fields of an existing one. */
    @PUT
    public Uni<Response> putProfile(@PathParam("id") String id, @Valid @NotNull ProfileRequest body) {
        String actor = caller.requireSelf(Ids.require("id", id));
        return users.findProfile(id)
                .chain(existing -> existing.isPresent()
                        ? log.append(UserEvent.PROFILE_UPDATED,
                                new UserProfileUpdated(id, body.name(), body.email(), body.avatarUrl()), actor)
                        : log.append(UserEvent.REGISTERED, new UserRegistered(id, body.name(), body.email(),
                                body.avatarUrl(), Timestamps.format(Instant.now())), actor))
                .map(appended -> Accepted.response(appended, id, "/users/" + id));
    }

    /** Changes some fields of the caller's registered profile. */
    @PATCH
    public Uni<Response> changeProfile(@PathParam("id") String id, @Valid @NotNull ProfileChangeRequest body) {
        String actor = caller.requireSelf(Ids.require("id", id));
        return users.findProfile(id)
                .map(existing -> existing.orElseThrow(() -> Problems.notFound("user", id)))
                .chain(existing -> log.append(UserEvent.PROFILE_UPDATED,
                        new UserProfileUpdated(id, body.name(), body.email(), body.avatarUrl()), actor))
                .map(appended -> Accepted.response(appended, id, "/users/" + id));
    }
}
