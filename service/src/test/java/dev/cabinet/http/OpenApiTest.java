package dev.cabinet.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.support.Endpoints;
import io.quarkus.test.junit.QuarkusTest;

/** The OpenAPI document at /q/openapi covers every endpoint, with the shared headers and problem answers. */
@QuarkusTest
class OpenApiTest {

    @Test
    void everyEndpointIsDocumentedWithItsHeadersAndProblems() throws Exception {
        JsonNode document = new ObjectMapper().readTree(given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().asString());
        JsonNode paths = document.get("paths");
        List<String> endpoints = Endpoints.all().stream().map(e -> e.method() + " " + e.path()).toList();
        assertTrue(endpoints.size() > 40, "found only " + endpoints);
        for (String endpoint : endpoints) {
            String method = endpoint.substring(0, endpoint.indexOf(' '));
            String path = endpoint.substring(endpoint.indexOf(' ') + 1);
            JsonNode operation = paths.path(path).path(method.toLowerCase(Locale.ROOT));
            assertTrue(operation.isObject(), endpoint + " is missing from the OpenAPI document");
            for (String status : List.of("400", "404")) {
                assertEquals("#/components/schemas/Problem",
                        operation.at("/responses/" + status + "/content/application~1problem+json/schema/$ref").asText(),
                        endpoint + " documents no problem for " + status);
            }
            List<String> headers = new ArrayList<>();
            operation.path("parameters").forEach(p -> {
                if ("header".equals(p.path("in").asText())) {
                    headers.add(p.path("name").asText());
                }
            });
            if (method.equals("GET")) {
                assertTrue(headers.contains("Consistency-Token"), endpoint + " lacks Consistency-Token: " + headers);
            } else if (!path.startsWith("/admin/")) {
                assertTrue(headers.containsAll(List.of("Idempotency-Key", "Prefer")), endpoint + ": " + headers);
                assertTrue(operation.path("responses").has("401") && operation.path("responses").has("403"), endpoint);
                assertTrue(operation.path("security").isArray() && operation.path("security").size() > 0,
                        endpoint + " documents no bearer token");
            }
        }
        assertTrue(document.at("/components/securitySchemes").size() > 0, "no security scheme");
    }

    @Test
    void theEventContractIsServedAsKeptInTheRepository() throws Exception {
        String asyncApi = given().get("/contract/asyncapi.yaml").then().statusCode(200).extract().asString();
        assertEquals(resource("META-INF/resources/contract/asyncapi.yaml"), asyncApi);
        for (String type : List.of("cabinet.user.registered.v1", "cabinet.metrics.recorded.v1")) {
            String path = "contract/events/" + type + ".json";
            String schema = given().get("/" + path).then().statusCode(200).contentType("application/json")
                    .extract().asString();
            assertEquals(resource("META-INF/resources/" + path), schema);
        }
    }

    private static String resource(String path) throws java.io.IOException {
        try (var in = OpenApiTest.class.getClassLoader().getResourceAsStream(path)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
