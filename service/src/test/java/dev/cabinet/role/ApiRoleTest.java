package dev.cabinet.role;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.EventApplier;
import dev.cabinet.projection.ProjectionEngine;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;

/** cabinet.role=api: commands and queries are served, and the instance never joins the projector's consumer group. */
@QuarkusTest
@TestProfile(ApiRoleTest.ApiOnly.class)
class ApiRoleTest {

    /** An API-only instance. */
    public static class ApiOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(Role.PROPERTY, "api");
        }
    }

    @Inject
    KafkaClientService kafka;

    @Test
    void anApiInstanceAcceptsCommandsButHasNoProjectorConsumer() {
        String user = newUserId();
        as(user).body(Map.of("name", "Api", "email", user + "@example.com")).put("/users/" + user).then().statusCode(202);
        given().get("/users/" + newUserId()).then().statusCode(404);
        assertTrue(ProjectionEngine.consumers(kafka).isEmpty(), "no consumer for the projector's channel");
        assertNotNull(kafka.getProducer("events-out"));
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        // nor loads what only applying events needs (the event contract's schemas): that is the projector's footprint
        assertNull(Arc.container().getActiveContext(ApplicationScoped.class)
                .get(Arc.container().instance(EventApplier.class).getBean()), "the event applier was created");
    }
}
