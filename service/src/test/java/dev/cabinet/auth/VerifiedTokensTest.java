package dev.cabinet.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.smallrye.jwt.runtime.auth.JsonWebTokenCredential;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipal;
import io.smallrye.mutiny.Uni;

/**
 * A verified token's claims are answered from memory until it expires, a minute at most, each request with an identity
 * of its own; a refused token is never remembered; the provider is asked before smallrye-jwt's.
 */
class VerifiedTokensTest {

    private static final AuthenticationRequestContext CONTEXT = work -> Uni.createFrom().item(work);

    /** Stands for smallrye-jwt's validator: tokens starting with "good" verify, expiring in as many seconds as they say. */
    private static final class CountingVerifier extends MpJwtValidator {
        final AtomicInteger verified = new AtomicInteger();

        @Override
        public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
            verified.incrementAndGet();
            String token = request.getToken().getToken();
            if (!token.startsWith("good")) {
                return Uni.createFrom().failure(new AuthenticationFailedException("bad signature"));
            }
            long seconds = Long.parseLong(token.substring(token.indexOf('-') + 1));
            JsonWebToken claims = claims(Instant.now().plusSeconds(seconds));
            return Uni.createFrom().item(QuarkusSecurityIdentity.builder().setPrincipal(claims)
                    .addCredential(request.getToken()).addRoles(claims.getGroups()).build());
        }
    }

    private final CountingVerifier verifier = new CountingVerifier();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final VerifiedTokens tokens = new VerifiedTokens(verifier, registry, Optional.empty());

    @Test
    void aVerifiedTokenIsNotVerifiedAgainYetEachRequestHasItsOwnIdentity() {
        TokenAuthenticationRequest firstRequest = request("good-3600");
        TokenAuthenticationRequest secondRequest = request("good-3600");
        SecurityIdentity first = authenticate(firstRequest);
        SecurityIdentity second = authenticate(secondRequest);

        assertEquals(1, verifier.verified.get());
        assertNotSame(first, second);
        assertSame(first.getPrincipal(), second.getPrincipal(), "the claims verified once");
        assertSame(secondRequest.getToken(), second.getCredential(TokenCredential.class), "this request's credential");
        assertEquals(first.getRoles(), second.getRoles());
        assertTrue(second.hasRole("operator"));
        assertEquals(1, registry.counter("cabinet.auth.tokens", "outcome", "verified").count());
        assertEquals(1, registry.counter("cabinet.auth.tokens", "outcome", "remembered").count());

        authenticate(request("good-7200"));
        assertEquals(2, verifier.verified.get(), "another token is verified on its own");
    }

    @Test
    void aRefusedTokenIsRefusedEveryTime() {
        assertThrows(AuthenticationFailedException.class, () -> authenticate(request("forged-3600")));
        assertThrows(AuthenticationFailedException.class, () -> authenticate(request("forged-3600")));
        assertEquals(2, verifier.verified.get());
    }

    @Test
    void aTokenAboutToExpireIsNotRemembered() {
        authenticate(request("good-0"));
        authenticate(request("good-0"));
        assertEquals(2, verifier.verified.get());
    }

    @Test
    void aCredentialOfAnotherMechanismIsLeftToTheOtherProviders() {
        assertNull(authenticate(new TokenAuthenticationRequest(new TokenCredential("good-3600", "other"))));
        assertEquals(0, verifier.verified.get());
    }

    @Test
    void claimsAreKeptUntilTheirTokenExpiresAndAMinuteAtMost() {
        Instant now = Instant.parse("2026-12-01T08:00:00Z");
        assertEquals(Duration.ofSeconds(10), tokens.keptFor(claims(now.plusSeconds(10)), now));
        assertEquals(VerifiedTokens.LONGEST, tokens.keptFor(claims(now.plusSeconds(3600)), now));
        assertEquals(Duration.ZERO, tokens.keptFor(claims(now.minusSeconds(1)), now));
    }

    @Test
    void withAMaximumTokenAgeClaimsAreNotKeptPastIt() {
        Instant now = Instant.parse("2026-12-01T08:00:00Z");
        VerifiedTokens aged = new VerifiedTokens(verifier, registry, Optional.of(300L));
        assertEquals(Duration.ofSeconds(20), aged.keptFor(claims(now.minusSeconds(280), now.plusSeconds(3600)), now),
                "issued 280 s ago, too old for the verifier in 20 s, though it expires in an hour");
        assertEquals(VerifiedTokens.LONGEST, aged.keptFor(claims(now, now.plusSeconds(3600)), now));
        assertEquals(Duration.ZERO, aged.keptFor(claims(now.plusSeconds(3600)), now), "no issued-at: not remembered");
    }

    @Test
    void itIsAskedBeforeSmallryeJwtsValidator() {
        assertTrue(tokens.priority() > new MpJwtValidator().priority(), "providers are asked highest priority first");
        assertTrue(tokens.priority() > IdentityProvider.SYSTEM_FIRST);
    }

    private SecurityIdentity authenticate(TokenAuthenticationRequest request) {
        return tokens.authenticate(request, CONTEXT).await().indefinitely();
    }

    private static TokenAuthenticationRequest request(String token) {
        return new TokenAuthenticationRequest(new JsonWebTokenCredential(token));
    }

    private static JsonWebToken claims(Instant issued, Instant expires) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuedAt(NumericDate.fromSeconds(issued.getEpochSecond()));
        claims.setSubject("u1");
        claims.setExpirationTime(NumericDate.fromSeconds(expires.getEpochSecond()));
        return new DefaultJWTCallerPrincipal(claims);
    }

    private static JsonWebToken claims(Instant expires) {
        JwtClaims claims = new JwtClaims();
        claims.setSubject("u1");
        claims.setStringListClaim("groups", List.of("operator"));
        claims.setExpirationTime(NumericDate.fromSeconds(expires.getEpochSecond()));
        return new DefaultJWTCallerPrincipal(claims);
    }
}
