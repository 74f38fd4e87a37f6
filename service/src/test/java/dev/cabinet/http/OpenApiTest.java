package dev.cabinet.http;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.support.Api;
import dev.cabinet.support.Endpoints;
import dev.cabinet.table.AccessPattern;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The OpenAPI document at /q/openapi covers every endpoint, with the shared headers and problem answers, and its
 * request examples work; the event contract is served as kept in the repository.
 */
@QuarkusTest
class OpenApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Instance<TaggedResource> taggedResources;

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

    /**
     * The reads only their user may make: the access patterns the key plan declares so (a new one needs no line here),
     * and a file's content and a new link to upload it, which are its folder owner's and no pattern of the table.
     */
    private static final Set<String> PRIVATE_READS = Stream.concat(
            Stream.of("/files/{id}/content", "/files/{id}/upload"),
            KeyPlan.ACCESS_PATTERNS.stream().filter(AccessPattern::callerOnly).flatMap(p -> p.paths().stream()))
            .collect(Collectors.toSet());

    /**
     * What client generators need: an id for every operation, unique (generated methods are named after it), and the
     * security of every operation declared: the bearer token on commands, operator endpoints and private reads, none
     * on the other reads.
     */
    @Test
    void everyOperationHasAUniqueIdAndDeclaresItsSecurity() throws Exception {
        JsonNode document = JSON.readTree(given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().asString());
        assertEquals("/", document.at("/servers/0/url").asText(), "servers");
        assertEquals("Apache-2.0", document.at("/info/license/name").asText(), "licence");
        assertEquals("bearer", document.at("/components/securitySchemes/bearer/scheme").asText());
        Set<String> ids = new HashSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(entry -> {
            String endpoint = entry.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
            JsonNode operation = entry.getValue();
            String id = operation.path("operationId").asText();
            assertTrue(!id.isEmpty(), endpoint + " has no operationId");
            assertTrue(ids.add(id), endpoint + " repeats the operationId " + id);
            JsonNode security = operation.path("security");
            assertTrue(security.isArray(), endpoint + " declares no security");
            boolean publicRead = entry.getKey().equals("get") && !path.getKey().startsWith("/admin/")
                    && !PRIVATE_READS.contains(path.getKey())
                    || path.getKey().startsWith("/dev/");
            assertEquals(publicRead ? 0 : 1, security.size(), endpoint + ": " + security);
            if (!publicRead) {
                assertTrue(security.get(0).has("bearer"), endpoint + ": " + security);
            }
        }));
        assertTrue(ids.size() > 40, ids.toString());
    }

    /**
     * Every request body documented has an example, and the example is input the API accepts: sent (by a registered
     * user, its own id in every path parameter) it is never refused as invalid (400, 413, 415, 422) nor a 5xx; what
     * it names may not exist (404) or not be the caller's (403), which is not the example's fault.
     */
    @Test
    void everyRequestBodyHasAnExampleTheApiAccepts() throws Exception {
        JsonNode document = JSON.readTree(given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().asString());
        String me = Api.newUserId();
        Api.register(me, "Example User");
        List<String> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
            JsonNode schema = operation.getValue().at("/requestBody/content/application~1json/schema");
            if (schema.isMissingNode()) {
                return;
            }
            JsonNode example = example(document, schema);
            assertTrue(!example.isMissingNode(), path.getKey() + " documents a request body without an example: "
                    + schema + " " + (schema.has("$ref") ? document.at(schema.get("$ref").asText().substring(1)) : ""));
            String method = operation.getKey().toUpperCase(Locale.ROOT);
            String uri = path.getKey().replaceAll("\\{[^}]+}", me);
            int status = Api.as(me).body(example.toString()).request(method, uri).then().extract().statusCode();
            String line = method + " " + path.getKey() + " " + example + " -> " + status;
            (List.of(400, 413, 415, 422).contains(status) || status >= 500 ? refused : accepted).add(line);
        }));
        System.out.println("OpenAPI examples: " + String.join("\n  ", accepted));
        assertEquals(List.of(), refused);
        assertTrue(accepted.size() >= 15, "only " + accepted.size() + " documented request bodies");
        assertTrue(accepted.stream().filter(line -> line.endsWith(" 202")).count() >= 5, accepted.toString());
    }

    /** The example of a schema: its own, or one built from its items' or properties' examples; missing if none. */
    private static JsonNode example(JsonNode document, JsonNode schema) {
        JsonNode resolved = schema.has("$ref") ? document.at(schema.get("$ref").asText().substring(1)) : schema;
        if (resolved.has("examples")) {
            return resolved.get("examples").get(0);   // OpenAPI 3.1 (JSON Schema's list of examples)
        }
        if (resolved.has("example")) {
            return resolved.get("example");
        }
        if (resolved.has("oneOf")) {
            return example(document, resolved.get("oneOf").get(0));
        }
        if (resolved.has("items")) {
            JsonNode item = example(document, resolved.get("items"));
            return item.isMissingNode() ? item : JSON.createArrayNode().add(item);
        }
        ObjectNode object = JSON.createObjectNode();
        resolved.path("properties").fields().forEachRemaining(property -> {
            JsonNode value = example(document, property.getValue());
            if (!value.isMissingNode()) {
                object.set(property.getKey(), value);
            }
        });
        return object.isEmpty() ? MissingNode.getInstance() : object;
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

    /**
     * The document declares {@code If-Match} (and its 412) on exactly the commands the running application checks it
     * on ({@link TaggedResource}s, which refuse it with 400 elsewhere), and {@code If-None-Match} on those resources'
     * GETs ({@link OpenApiContract#TAGGED} is the document's side).
     */
    @Test
    void ifMatchIsDeclaredOnExactlyTheCommandsThatHonourIt() throws Exception {
        JsonNode document = new ObjectMapper().readTree(given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().asString());
        Set<String> declared = new HashSet<>();
        Set<String> honoured = new HashSet<>();
        Set<String> readsDeclared = new HashSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            String name = op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
            boolean conditional = false;
            for (JsonNode parameter : op.getValue().path("parameters")) {
                String header = parameter.path("name").asText();
                conditional |= header.equals("If-Match") || header.equals("If-None-Match");
            }
            if (op.getKey().equals("get")) {
                if (conditional) {
                    readsDeclared.add(path.getKey());
                }
                return;
            }
            if (conditional) {
                declared.add(name);
                assertTrue(op.getValue().path("responses").has("412"), name + " declares If-Match but no 412");
            }
            String sample = path.getKey().replaceAll("\\{[^}]+}", "x01");
            if (taggedResources.stream().anyMatch(resource -> resource.itemChangedBy(sample).isPresent())) {
                honoured.add(name);
            }
        }));
        assertTrue(honoured.size() >= 10, "found only " + honoured);
        assertEquals(new TreeSet<>(honoured), new TreeSet<>(declared));
        assertEquals(new TreeSet<>(OpenApiContract.TAGGED), new TreeSet<>(readsDeclared));
    }
}
