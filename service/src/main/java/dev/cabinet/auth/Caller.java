package dev.cabinet.auth;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import dev.cabinet.http.Problems;
import dev.cabinet.shared.Ids;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * Who is calling: the verified token's subject, which is the actor of every command (never a body field). The subject
 * must be a valid Cabinet user id, as it goes into keys.
 */
@ApplicationScoped
public class Caller {

    /** The token group of the operators: dead letters, rebuilds, erasing anyone, roles in any group. */
    public static final String OPERATOR = "operator";

    private final JsonWebToken token;
    private final CurrentIdentityAssociation identity;

    Caller(JsonWebToken token, CurrentIdentityAssociation identity) {
        this.token = token;
        this.identity = identity;
    }

    /** The caller's user id; only for endpoints annotated {@code @Authenticated}. */
    public String id() {
        String subject = token.getSubject();
        if (!Ids.isValid(subject)) {
            throw Problems.forbidden("the token's subject is not a valid user id (" + Ids.PATTERN + ")");
        }
        return subject;
    }

    /** The caller's user id, after checking it is {@code userId}: a user may only act as themself. */
    public String requireSelf(String userId) {
        String caller = id();
        if (!caller.equals(userId)) {
            throw Problems.forbidden("user " + caller + " may not change user " + userId);
        }
        return caller;
    }

    /** The caller's user id, after checking it is {@code userId} or the caller has {@code role}; else a 403 problem. */
    public Uni<String> requireSelfOrRole(String userId, String role, String action) {
        String caller = id();
        if (caller.equals(userId)) {
            return Uni.createFrom().item(caller);
        }
        return hasRole(role).map(has -> {
            if (!has) {
                throw Problems.forbidden("user " + caller + " may not " + action + " user " + userId
                        + ": only they themself or the " + role + " role may");
            }
            return caller;
        });
    }

    /** Whether the caller's token carries {@code role} (a group of its {@code groups} claim). */
    public Uni<Boolean> hasRole(String role) {
        return identity.getDeferredIdentity().map(found -> found.hasRole(role));
    }

    /** Whether the request carries a valid token for {@code userId}; false for anonymous callers. */
    public Uni<Boolean> is(String userId) {
        return identity.getDeferredIdentity()
                .map(SecurityIdentity::getPrincipal)
                .map(principal -> principal instanceof JsonWebToken && userId.equals(((JsonWebToken) principal).getSubject()));
    }
}
