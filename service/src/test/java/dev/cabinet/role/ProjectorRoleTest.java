package dev.cabinet.role;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.projection.EventApplier;
import dev.cabinet.projection.ProjectionEngine;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;

/** cabinet.role=projector: the consumer runs, the API answers 404, health and metrics stay for the probes. */
@QuarkusTest
@TestProfile(ProjectorRoleTest.ProjectorOnly.class)
class ProjectorRoleTest {

    /** A projector-only instance. */
    public static class ProjectorOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(Role.PROPERTY, "projector");
        }
    }

    @Inject
    KafkaClientService kafka;

    @Test
    void aProjectorInstanceConsumesAndServesOnlyHealthAndMetrics() {
        assertEquals(ConfigProvider.getConfig().getValue("mp.messaging.incoming.events.concurrency", Integer.class),
                ProjectionEngine.consumers(kafka).size(), "one consumer per copy of the channel");
        given().get("/users/anyone").then().statusCode(404).contentType("application/problem+json")
                .body("detail", containsString("projector only"));
        given().contentType("application/json").body(Map.of("sub", "x")).post("/dev/tokens").then().statusCode(404);
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/metrics").then().statusCode(200);
        // the event contract loaded at boot, so a missing schema fails the start rather than the first record
        assertNotNull(Arc.container().getActiveContext(ApplicationScoped.class)
                .get(Arc.container().instance(EventApplier.class).getBean()), "the event applier was not created");
    }
}
