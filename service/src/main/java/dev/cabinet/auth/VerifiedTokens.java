package dev.cabinet.auth;

import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.smallrye.mutiny.Uni;

/**
 * Remembers the identity of a bearer token smallrye-jwt verified, for a minute at most and never past the token's
 * expiry: a client sends the same token with every request while it lasts, and verifying it again (parsing its JSON and
 * checking its RSA signature) was the API's largest cost of its own, 12% of its CPU under load in a JFR profile. Keyed
 * by the whole token, so only the exact token that was verified is answered from here; a token that fails verification
 * is never remembered.
 */
@ApplicationScoped
public class VerifiedTokens implements IdentityProvider<TokenAuthenticationRequest> {

    /** How long a verified token is remembered at most: a key the issuer withdraws stops working within this. */
    static final Duration LONGEST = Duration.ofMinutes(1);

    private final MpJwtValidator verifier;
    private final Cache<String, SecurityIdentity> verified = Caffeine.newBuilder()
            .maximumSize(10_000)
            .expireAfter(Expiry.<String, SecurityIdentity>creating((token, identity) -> keptFor(identity, Instant.now())))
            .build();

    VerifiedTokens(MpJwtValidator verifier) {
        this.verifier = verifier;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    /** Asked before smallrye-jwt's own validator (priority 0), to which it hands every token it does not know. */
    @Override
    public int priority() {
        return 1;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        String token = request.getToken().getToken();
        SecurityIdentity known = verified.getIfPresent(token);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return verifier.authenticate(request, context).invoke(identity -> {
            if (identity != null && !keptFor(identity, Instant.now()).isZero()) {
                verified.put(token, identity);
            }
        });
    }

    /** How long an identity may be answered from memory from {@code now}: until its token expires, a minute at most. */
    static Duration keptFor(SecurityIdentity identity, Instant now) {
        if (!(identity.getPrincipal() instanceof JsonWebToken jwt) || jwt.getExpirationTime() <= 0) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(now, Instant.ofEpochSecond(jwt.getExpirationTime()));
        return left.isNegative() ? Duration.ZERO : left.compareTo(LONGEST) < 0 ? left : LONGEST;
    }
}
