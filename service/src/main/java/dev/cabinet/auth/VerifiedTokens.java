package dev.cabinet.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.smallrye.jwt.runtime.auth.JsonWebTokenCredential;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Remembers the claims of a bearer token smallrye-jwt verified, until the token expires and for a minute at most: a
 * client sends the same token with every request while it lasts, and verifying it again (its JSON parsed, its RSA
 * signature checked, on a worker thread when the key is a remote JWKS) was the API's largest cost of its own, 7-14% of
 * its CPU per request in JFR profiles. Keyed by the whole token, so only the very token that was verified is answered
 * from here; a token that fails verification is never remembered. Each request still gets an identity of its own
 * (its credential, its routing context), built as smallrye-jwt builds it, and the augmentors run on it as before.
 */
@ApplicationScoped
public class VerifiedTokens implements IdentityProvider<TokenAuthenticationRequest> {

    /**
     * How long a verified token is remembered at most: a token smallrye-jwt would stop accepting (its key withdrawn
     * from the JWKS it keeps, say) is accepted at most this much longer. Never past the token's expiry, nor past its
     * maximum age when {@code mp.jwt.verify.token.age} sets one.
     */
    static final Duration LONGEST = Duration.ofMinutes(1);
    /** How many tokens are remembered at most (a few KB of claims each); beyond it Caffeine evicts the least used. */
    static final int MOST = 2_000;

    private final MpJwtValidator verifier;
    private final Optional<Long> maximumAgeSeconds;
    private final Counter verifiedCount;
    private final Counter rememberedCount;
    private final Cache<String, JsonWebToken> verified = Caffeine.newBuilder()
            .maximumSize(MOST)
            .expireAfter(Expiry.<String, JsonWebToken>creating((token, claims) -> keptFor(claims, Instant.now())))
            .build();

    VerifiedTokens(MpJwtValidator verifier, MeterRegistry registry,
            @ConfigProperty(name = "mp.jwt.verify.token.age") Optional<Long> maximumAgeSeconds) {
        this.verifier = verifier;
        this.maximumAgeSeconds = maximumAgeSeconds;
        this.verifiedCount = registry.counter("cabinet.auth.tokens", "outcome", "verified");
        this.rememberedCount = registry.counter("cabinet.auth.tokens", "outcome", "remembered");
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    /**
     * Asked before smallrye-jwt's validator, which, like every provider that names no priority, has
     * {@code IdentityProvider}'s default of {@code SYSTEM_FIRST + 1}; providers are asked highest first.
     */
    @Override
    public int priority() {
        return SYSTEM_FIRST + 2;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        if (!(request.getToken() instanceof JsonWebTokenCredential)) {
            return Uni.createFrom().nullItem();   // not a bearer token of smallrye-jwt's mechanism: not ours either
        }
        String token = request.getToken().getToken();
        JsonWebToken known = verified.getIfPresent(token);
        if (known != null) {
            rememberedCount.increment();
            return Uni.createFrom().item(() -> identity(known, request));
        }
        return verifier.authenticate(request, context).invoke(identity -> {
            verifiedCount.increment();
            if (identity != null && identity.getPrincipal() instanceof JsonWebToken claims
                    && !keptFor(claims, Instant.now()).isZero()) {
                verified.put(token, claims);
            }
        });
    }

    /** The identity smallrye-jwt would build for these claims and this request (MpJwtValidator's, field for field). */
    private static SecurityIdentity identity(JsonWebToken claims, TokenAuthenticationRequest request) {
        QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder()
                .setPrincipal(claims)
                .addCredential(request.getToken())
                .addRoles(claims.getGroups())
                .addAttribute(SecurityIdentity.USER_ATTRIBUTE, claims);
        RoutingContext routing = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (routing != null) {
            identity.addAttribute(RoutingContext.class.getName(), routing);
        }
        return identity.build();
    }

    /**
     * How long claims may be answered from memory from {@code now}: a minute at most, and never past the token's
     * expiry or its maximum age (issued-at plus {@code mp.jwt.verify.token.age}), the checks smallrye-jwt makes against
     * the clock; the others (signature, issuer, audience) hold for a token once they held.
     */
    Duration keptFor(JsonWebToken claims, Instant now) {
        if (claims.getExpirationTime() <= 0) {
            return Duration.ZERO;
        }
        Instant end = Instant.ofEpochSecond(claims.getExpirationTime());
        if (maximumAgeSeconds.isPresent()) {
            if (claims.getIssuedAtTime() <= 0) {
                return Duration.ZERO;
            }
            Instant tooOld = Instant.ofEpochSecond(claims.getIssuedAtTime() + maximumAgeSeconds.get());
            end = tooOld.isBefore(end) ? tooOld : end;
        }
        Duration left = Duration.between(now, end);
        return left.isNegative() ? Duration.ZERO : left.compareTo(LONGEST) < 0 ? left : LONGEST;
    }
}
