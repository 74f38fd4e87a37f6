package dev.cabinet.auth;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.cabinet.http.ProblemResponses;
import dev.cabinet.http.Problems;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;

/**
 * A request that carries credentials has them checked before anything else: a forged, expired or foreign token is a
 * 401 on every endpoint, before the endpoint can tell whether a resource exists. (Authentication is otherwise lazy, so
 * that failures reach the problem+json mappers.)
 */
public class CredentialsFirst {

    private final CurrentIdentityAssociation identity;

    CredentialsFirst(CurrentIdentityAssociation identity) {
        this.identity = identity;
    }

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
    public Uni<Response> authenticate(ContainerRequestContext request) {
        String credentials = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (credentials == null) {
            return Uni.createFrom().nullItem();
        }
        if (!credentials.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Uni.createFrom().item(unauthorized(request, "only bearer tokens are accepted"));
        }
        return identity.getDeferredIdentity()
                .map(ignored -> (Response) null)
                .onFailure().recoverWithItem(failure -> unauthorized(request,
                        "the bearer token is not valid (signature, issuer, audience or expiry)"));
    }

    private static Response unauthorized(ContainerRequestContext request, String detail) {
        return Response.fromResponse(ProblemResponses.of(401, Problems.TYPE_PREFIX + "unauthorized", "Unauthorized",
                detail, request.getUriInfo().getPath(), null))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"")
                .build();
    }
}
