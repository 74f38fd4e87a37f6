package dev.cabinet.erasure;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.iam.IamRole;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.SubjectKeyStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The production wrapping, against a stand-in that speaks KMS's protocol ({@link StubKms}): the API makes a person's
 * key with GenerateDataKey, every reader unwraps it with Decrypt naming the configured key, the table keeps only the
 * wrapped key, and an erasure works as with the local wrapping. The operations made are what the roles' policies grant.
 */
@QuarkusTest
@TestProfile(KmsWrappingTest.Kms.class)
class KmsWrappingTest {

    /** KMS wrapping, and no key kept in memory, so every event's reading asks KMS to unwrap. */
    public static class Kms implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cabinet.erasure.wrapping", "kms", "cabinet.erasure.kms-key-id", StubKms.KEY_ARN,
                    "cabinet.erasure.key-cache", "0s",
                    "quarkus.kms.aws.region", "eu-west-1", "quarkus.kms.aws.credentials.type", "static",
                    "quarkus.kms.aws.credentials.static-provider.access-key-id", "test",
                    "quarkus.kms.aws.credentials.static-provider.secret-access-key", "test");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(StubKms.class));
        }
    }

    @Inject
    SubjectKeyStore keys;

    @Test
    void kmsMakesAndUnwrapsEachPersonsKeyAndNothingElse() {
        String ada = newUserId();
        StubKms.REQUESTS.clear();
        as(ada).body(Map.of("name", "Ada under KMS", "email", "ada@example.org")).put("/users/" + ada)
                .then().statusCode(202);
        awaitOk("/users/" + ada).body("name", equalTo("Ada under KMS"));

        var item = keys.read(ada).await().atMost(PROJECTION_WAIT).orElseThrow();
        assertEquals("kms:" + StubKms.KEY_ARN, item.get(Attributes.WRAPPING).s());
        assertTrue(item.get(Attributes.WRAPPED_KEY).b().asByteArray().length > 32, "the table keeps it wrapped");
        Set<String> asked = new TreeSet<>(StubKms.REQUESTS);
        assertEquals(Set.of("TrentService.Decrypt " + StubKms.KEY_ARN, "TrentService.GenerateDataKey "
                + StubKms.KEY_ARN), asked, "one key, two operations");
        assertTrue(IamRole.API.grants("kms:GenerateDataKey", IamRole.Resource.KEY));
        assertTrue(IamRole.PROJECTOR.grants("kms:Decrypt", IamRole.Resource.KEY));

        applied(waiting(ada).delete("/users/" + ada));
        given().get("/users/" + ada).then().statusCode(410);
        assertTrue(keys.read(ada).await().atMost(PROJECTION_WAIT).orElseThrow().get(Attributes.WRAPPED_KEY) == null,
                "the wrapped key is gone from the table");
    }
}
