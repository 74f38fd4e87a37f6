package dev.cabinet.auth;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;

/** The packaged application in the prod profile: no development endpoint, and tokens verified as configured. */
@QuarkusIntegrationTest
@WithTestResource(ProductionKeys.class)
class ProductionModeIT {

    @Test
    void theDevelopmentTokenEndpointDoesNotExist() {
        given().contentType(ContentType.JSON).body(Map.of("sub", "anyone")).post("/dev/tokens")
                .then().statusCode(404);
    }

    @Test
    void aTokenFromTheConfiguredIssuerIsAcceptedAndItsSubjectActs() {
        String id = "u" + Ids.newId();
        given().auth().oauth2(sign(claims(id))).contentType(ContentType.JSON)
                .body(Map.of("name", "Prod", "email", "prod@example.com")).put("/users/" + id)
                .then().statusCode(202);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/users/" + id)
                .then().statusCode(200).body("name", equalTo("Prod")));
    }

    @Test
    void tokensThatAreExpiredForeignOrForAnotherAudienceAreUnauthorized() throws Exception {
        String id = "u" + Ids.newId();
        assertUnauthorized(id, sign(claims(id).expiresAt(Instant.now().minusSeconds(600))));
        assertUnauthorized(id, sign(claims(id).issuer("https://someone-else.test")));
        assertUnauthorized(id, sign(claims(id).audience("another-service")));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        assertUnauthorized(id, claims(id).sign(generator.generateKeyPair().getPrivate()));
    }

    private static void assertUnauthorized(String id, String token) {
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Map.of("name", "X", "email", "x@example.com")).put("/users/" + id)
                .then().statusCode(401).contentType("application/problem+json");
    }

    private static JwtClaimsBuilder claims(String subject) {
        return Jwt.subject(subject).issuer(ProductionKeys.ISSUER).audience(ProductionKeys.AUDIENCE)
                .expiresIn(Duration.ofMinutes(5));
    }

    private static String sign(JwtClaimsBuilder claims) {
        return claims.sign(ProductionKeys.pair().getPrivate());
    }
}
