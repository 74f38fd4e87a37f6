package dev.cabinet.auth;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.Ids;
import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import io.smallrye.jwt.build.Jwt;

/**
 * Signs short-lived tokens for any subject, with the key pair the Dev Services generated at start. Exists only in the
 * dev and test builds: a production build does not contain this endpoint at all.
 */
@Path("/dev/tokens")
@IfBuildProfile(anyOf = { "dev", "test" })
public class DevTokenResource {

    static final Duration LIFETIME = Duration.ofHours(1);

    /** The subject a token is wanted for, and its groups (roles), such as {@code operator}. */
    public record TokenRequest(@Schema(example = "john") @NotNull @Pattern(regexp = Ids.PATTERN) String sub,
            @Size(max = 10) List<@NotNull @Pattern(regexp = Ids.PATTERN) String> groups) {
    }

    /** A signed bearer token. */
    public record TokenResponse(String token, String tokenType, long expiresIn) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public TokenResponse issue(@Valid @NotNull TokenRequest request) {
        JwtClaimsBuilder claims = Jwt.subject(request.sub()).expiresIn(LIFETIME);
        if (request.groups() != null && !request.groups().isEmpty()) {
            claims.groups(Set.copyOf(request.groups()));
        }
        String token = claims.sign();
        return new TokenResponse(token, "Bearer", LIFETIME.toSeconds());
    }
}
