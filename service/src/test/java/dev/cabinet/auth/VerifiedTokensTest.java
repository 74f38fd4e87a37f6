package dev.cabinet.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.smallrye.jwt.runtime.auth.MpJwtValidator;
import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipal;
import io.smallrye.mutiny.Uni;

/** A verified token is answered from memory until it expires, a minute at most; a refused one is never remembered. */
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
            return Uni.createFrom().item(identity(Instant.now().plusSeconds(seconds)));
        }
    }

    private final CountingVerifier verifier = new CountingVerifier();
    private final VerifiedTokens tokens = new VerifiedTokens(verifier);

    @Test
    void aVerifiedTokenIsNotVerifiedAgain() {
        SecurityIdentity first = authenticate("good-3600");
        SecurityIdentity second = authenticate("good-3600");

        assertSame(first, second);
        assertEquals(1, verifier.verified.get());
        authenticate("good-7200");
        assertEquals(2, verifier.verified.get(), "another token is verified on its own");
    }

    @Test
    void aRefusedTokenIsRefusedEveryTime() {
        assertThrows(AuthenticationFailedException.class, () -> authenticate("forged-3600"));
        assertThrows(AuthenticationFailedException.class, () -> authenticate("forged-3600"));
        assertEquals(2, verifier.verified.get());
    }

    @Test
    void aTokenAboutToExpireIsNotRemembered() {
        authenticate("good-0");
        authenticate("good-0");
        assertEquals(2, verifier.verified.get());
    }

    @Test
    void anIdentityIsKeptUntilItsTokenExpiresAndAMinuteAtMost() {
        Instant now = Instant.parse("2026-12-01T08:00:00Z");
        assertEquals(Duration.ofSeconds(10), VerifiedTokens.keptFor(identity(now.plusSeconds(10)), now));
        assertEquals(VerifiedTokens.LONGEST, VerifiedTokens.keptFor(identity(now.plusSeconds(3600)), now));
        assertEquals(Duration.ZERO, VerifiedTokens.keptFor(identity(now.minusSeconds(1)), now));
    }

    private SecurityIdentity authenticate(String token) {
        return tokens.authenticate(new TokenAuthenticationRequest(new TokenCredential(token, "bearer")), CONTEXT)
                .await().indefinitely();
    }

    private static SecurityIdentity identity(Instant expires) {
        JwtClaims claims = new JwtClaims();
        claims.setSubject("u1");
        claims.setExpirationTime(NumericDate.fromSeconds(expires.getEpochSecond()));
        return QuarkusSecurityIdentity.builder().setPrincipal(new DefaultJWTCallerPrincipal(claims)).build();
    }
}
