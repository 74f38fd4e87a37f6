package dev.cabinet.eventlog;

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

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.erasure.StubKms;
import dev.cabinet.iam.IamRole;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.SubjectKeyStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * An instance set up as in production in the middle of a rolling upgrade, in one profile (each profile costs a Quarkus
 * build): its data keys wrapped by KMS, against a stand-in that speaks KMS's protocol ({@link StubKms}), and
 * {@code cabinet.customer.order-placed} still written as v1 for readers not yet upgraded.
 */
@QuarkusTest
@TestProfile(RollingUpgradeSettingsTest.Settings.class)
class RollingUpgradeSettingsTest {

    /** KMS wrapping with no key kept in memory (every reading asks KMS to unwrap), and orders written as v1. */
    public static class Settings implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cabinet.erasure.wrapping", "kms", "cabinet.erasure.kms-key-id", StubKms.KEY_ARN,
                    "cabinet.erasure.key-cache", "0s",
                    "quarkus.kms.aws.region", "eu-west-1", "quarkus.kms.aws.credentials.type", "static",
                    "quarkus.kms.aws.credentials.static-provider.access-key-id", "test",
                    "quarkus.kms.aws.credentials.static-provider.secret-access-key", "test",
                    "cabinet.events.write-version.\"cabinet.customer.order-placed\"", "1");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(StubKms.class));
        }
    }

    @Inject
    SubjectKeyStore keys;

    /**
     * The production wrapping: the API makes a person's key with GenerateDataKey, every reader unwraps it with Decrypt
     * naming the configured key, the table keeps only the wrapped key, and an erasure works as with the local wrapping.
     * The operations made are what the roles' policies grant (and IamPoliciesIT checks the call log).
     */
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

    /**
     * The writer keeps writing the older version while the setting names it: the record in the log is an
     * order-placed v1 (its total a JSON number), and readers upcast it, so the order reads as any other.
     */
    @Test
    void anOrderIsWrittenAsTheOlderVersionAndReadAsTheCurrentOne() throws Exception {
        String clerk = newUserId();
        String customer = "C" + Ids.newId();
        String order = "O" + Ids.newId();
        as(clerk).body(Map.of("name", "Older readers", "email", "older@example.com")).put("/customers/" + customer)
                .then().statusCode(202);
        awaitOk("/customers/" + customer);
        as(clerk).body(Map.of("orderId", order, "placedAt", "2026-07-01T10:00:00Z", "total", "129.90"))
                .post("/customers/" + customer + "/orders").then().statusCode(202)
                .body("type", equalTo("cabinet.customer.order-placed.v1"));
        awaitOk("/orders/" + order).body("total", equalTo("129.90"));

        var records = EventLogReader.recordsWithKey(Topics.CUSTOMERS, customer);
        var placed = records.get(records.size() - 1);
        assertEquals("cabinet.customer.order-placed.v1", EventLogReader.header(placed, CloudEventHeaders.TYPE));
        var total = new ObjectMapper().readTree(placed.value()).get("total");
        assertTrue(total.isNumber(), "v1 writes the total as a JSON number: " + total);
        assertEquals(0, new BigDecimal("129.90").compareTo(total.decimalValue()), total.toString());
    }
}
