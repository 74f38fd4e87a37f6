package dev.cabinet.projection.observability;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.kafka.common.utils.Utils;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Readiness says how far behind each partition is, in seconds beside events, and which partition is furthest behind:
 * the partition a new user's registration went to is listed once the projector has applied it.
 */
@QuarkusTest
class ProjectorHealthDataTest {

    @ConfigProperty(name = "cabinet.events.partitions")
    int partitions;

    @Test
    void readinessReportsEachPartitionsLagInSecondsAndEvents() {
        String user = newUserId();
        register(user, "Measured");
        int partition = Utils.toPositive(Utils.murmur2(user.getBytes(StandardCharsets.UTF_8))) % partitions;
        String name = Topics.USERS + "-" + partition;
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            Map<String, Object> data = given().get("/q/health/ready").then().statusCode(200).extract().jsonPath()
                    .getMap("checks.find { it.name == 'projector' }.data");
            assertThat("the partition of " + user + " in " + data, data.get(name), notNullValue());
            assertThat((String) data.get(name), matchesPattern("\\d+\\.\\d s, \\d+ events"));
            assertThat((String) data.get(ProjectorHealthCheck.OLDEST_UNAPPLIED),
                    matchesPattern("\\d+\\.\\d s( \\(cabinet\\.[a-z-]+-\\d+\\))?"));
        });
    }
}
