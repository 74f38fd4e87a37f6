package dev.cabinet.auth;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import dev.cabinet.table.Ids;
import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.jwt.build.Jwt;

/**
 * Signs short-lived tokens for any subject, with the key pair the Dev Services generated at start. Exists only in the
 * dev and test builds: a production build does not contain this endpoint at all.
 */
@Path("/dev/tokens")
@IfBuildProfile(anyOf = { "dev", "test" })
public class DevTokenResource {

    static final Duration LIFETIME = Duration.ofHours(1);

    /** The subject a token is wanted for. */
    public record TokenRequest(@NotNull @Pattern(regexp = Ids.PATTERN) String sub) {
    }

    /** A signed bearer token. */
    public record TokenResponse(String token, String tokenType, long expiresIn) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public TokenResponse issue(@Valid @NotNull TokenRequest request) {
        String token = Jwt.subject(request.sub()).expiresIn(LIFETIME).sign();
        return new TokenResponse(token, "Bearer", LIFETIME.toSeconds());
    }
}
