package dev.cabinet.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Adds to the generated OpenAPI document what every operation shares and no annotation says once: the headers that
 * work on every command ({@code Idempotency-Key}, {@code Prefer: wait}) and query ({@code Consistency-Token}), and
 * the problem+json answers with the cases each status stands for; what client generators and validators need (the
 * server, {@code security: []} on public operations, patterns with JSON Schema's meaning). Written as a filter so that
 * a new endpoint gets it without anyone remembering to.
 */
public class OpenApiContract implements OASFilter {

    /** A command's 503, as every command describes it. */
    public static final String COMMAND_UNAVAILABLE = "Kafka or the store did not answer within the request deadline "
            + "(`Retry-After`): `outcome-unknown` when the event may be in the log (its `eventId`; "
            + "`GET /commands/{eventId}` tells, and a retry with the same `Idempotency-Key` is safe), "
            + "`store-unavailable` when nothing was sent";
    /** What a command with an effect of its own before its event adds to its 503 (only an erasure has one). */
    public static final String INCOMPLETE = ", `incomplete` when the command's own effect before its event may be "
            + "done (an erasure's key destruction) and the same request completes it";

    /**
     * The single resources whose GET sends an {@code ETag} (their views are {@link Tagged}) and whose commands honour
     * {@code If-Match} ({@link TaggedPath} in each feature's queries); {@code OpenApiTest} checks
     * that these are exactly the paths the running application treats so.
     */
    static final List<String> TAGGED = List.of("/customers/{id}", "/files/{id}", "/folders/{id}", "/groups/{id}",
            "/posts/{id}", "/users/{id}");
    /** Command sub-paths that honour {@code If-Match} against their resource's tag. */
    static final List<String> TAGGED_SUB_COMMANDS = List.of("/posts/{id}/publish");

    private static final String PROBLEM = "Problem";
    private static final String COMMAND_ANSWER = "CommandAnswer";

    /**
     * What {@code @NotBlank} means on the server (Hibernate Validator: something is left after {@code String.trim()},
     * which strips every character up to U+0020), as a search pattern. SmallRye renders it as {@code \S}, which
     * ECMAScript reads differently (it counts U+00A0 and U+2028 as white space, Java does not).
     */
    static final String NOT_BLANK = "[^\\x00-\\x20]";

    /**
     * Bean Validation's {@code @Pattern} must match the whole value, JSON Schema's {@code pattern} may match anywhere
     * in it, and SmallRye copies the expression as it is: anchored, it means the same to a client as to the server.
     */
    @Override
    public Schema filterSchema(Schema schema) {
        String pattern = schema.getPattern();
        if ("\\S".equals(pattern)) {
            schema.setPattern(NOT_BLANK);
        } else if (pattern != null && !(pattern.startsWith("^") && pattern.endsWith("$"))) {
            schema.setPattern("^(?:" + pattern + ")$");
        }
        return schema;
    }

    @Override
    public void filterOpenAPI(OpenAPI openApi) {
        openApi.getComponents().addSchema(PROBLEM, problemSchema());
        openApi.getComponents().addSchema(COMMAND_ANSWER, commandAnswerSchema());
        openApi.getComponents().getSchemas().values().forEach(OpenApiContract::wireShapeOnly);
        openApi.getComponents().getSchemas().forEach(OpenApiContract::lastPageHasNoCursor);
        // Relative: the document is served by the instance it describes (README: dev mode on http://localhost:8080).
        openApi.setServers(new ArrayList<>(List.of(OASFactory.createServer().url("/")
                .description("The Cabinet instance that serves this document at /q/openapi"))));
        if (openApi.getPaths() == null || openApi.getPaths().getPathItems() == null) {
            return;
        }
        declareTags(openApi);
        for (Map.Entry<String, PathItem> path : openApi.getPaths().getPathItems().entrySet()) {
            // Operations that need a token have its requirement from @Authenticated/@RolesAllowed; the rest are
            // public, which a client can only tell from an explicit empty requirement.
            path.getValue().getOperations().values().stream().filter(operation -> operation.getSecurity() == null)
                    .forEach(operation -> operation.setSecurity(new ArrayList<>()));
            if (path.getKey().startsWith("/q/") || path.getKey().startsWith("/dev/")) {
                continue;
            }
            path.getValue().getOperations().forEach((method, operation) -> {
                if (method == PathItem.HttpMethod.GET) {
                    describeQuery(operation);
                    if (TAGGED.contains(path.getKey())) {
                        describeTaggedRead(operation);
                    }
                    if (path.getKey().equals("/users/{id}")) {
                        problem(operation, "410", "The person was erased");
                    }
                } else {
                    describeCommand(operation, path.getKey().startsWith("/admin/"));
                    if (TAGGED.contains(path.getKey()) || TAGGED_SUB_COMMANDS.contains(path.getKey())) {
                        describeConditionalCommand(operation);
                    }
                }
                describeProblems(operation);
            });
        }
    }

    /**
     * A body read by its own deserializer (SamplesRequest: one sample or an array) declares its wire shapes as
     * {@code oneOf}; the scanner adds the record's fields beside them as an object, which no array could be. The
     * array field's bounds move to the array shape.
     */
    private static void wireShapeOnly(Schema schema) {
        if (schema.getOneOf() == null || schema.getProperties() == null) {
            return;
        }
        schema.getOneOf().stream().filter(OpenApiContract::isArray).findFirst().ifPresent(shape -> {
            schema.getProperties().values().stream().filter(OpenApiContract::isArray).findFirst().ifPresent(field -> {
                shape.setMinItems(field.getMinItems());
                shape.setMaxItems(field.getMaxItems());
            });
            schema.setProperties(null);
            schema.setRequired(null);
            schema.setType(null);
        });
    }

    /** A page's {@code next} is null on the last page, and a client must be told it may be (OpenApiAnswersIT). */
    private static void lastPageHasNoCursor(String name, Schema schema) {
        Schema next = name.startsWith("Page") && schema.getProperties() != null ? schema.getProperties().get("next")
                : null;
        if (next != null) {
            next.addType(Schema.SchemaType.NULL).description("The `cursor` of the next page; null on the last page");
        }
    }

    private static boolean isArray(Schema schema) {
        return schema.getType() != null && schema.getType().contains(Schema.SchemaType.ARRAY);
    }

    /**
     * The tags the scanner gave operations (one per resource class, which generated clients name their API classes
     * after) are declared at the top, in order, each saying which class serves it.
     */
    private static void declareTags(OpenAPI openApi) {
        TreeSet<String> names = new TreeSet<>();
        openApi.getPaths().getPathItems().values().forEach(path -> path.getOperations().values().stream()
                .filter(operation -> operation.getTags() != null).forEach(operation -> names.addAll(operation.getTags())));
        openApi.setTags(new ArrayList<>(names.stream().map(name -> OASFactory.createTag().name(name)
                .description("The operations of Cabinet's `" + name.replace(" ", "") + "`")).toList()));
    }

    /** The answers of a refusal every error status has: a problem, whatever the annotation that declared it said. */
    private static void describeProblems(Operation operation) {
        problem(operation, "400", "A parameter or the body is invalid; `errors[]` names each field");
        problem(operation, "404", "The resource does not exist");
        boolean open = operation.getSecurity() == null || operation.getSecurity().isEmpty();
        problem(operation, "401", open ? "A bearer token was sent and is not valid (this operation needs none)"
                : "No valid bearer token");
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (status.compareTo("400") >= 0 && status.length() == 3 && response.getContent() == null) {
                problem(operation, status, response.getDescription());
            }
        });
    }

    private static void describeTaggedRead(Operation operation) {
        operation.addParameter(header("If-None-Match", "An `ETag` this resource sent: 304 without a body while it "
                + "still has that tag.", false));
        operation.getResponses().addAPIResponse("304", OASFactory.createAPIResponse()
                .description("Not modified: the resource still has the `If-None-Match` tag"));
    }

    private static void describeConditionalCommand(Operation operation) {
        operation.addParameter(header("If-Match", "The `ETag` of the resource as it was read: the command goes "
                + "ahead only while the resource still has it (read strongly consistently), else 412.", false));
        operation.addParameter(header("If-None-Match", "`*` (only if the resource does not exist yet) or `ETag`s: "
                + "the command goes ahead only while the resource has none of them, else 412.", false));
        problem(operation, "412", "`If-Match` no longer matches: the resource changed since it was read (its "
                + "current `ETag` is sent) or does not exist; or `If-None-Match` names it");
    }

    private static void describeQuery(Operation operation) {
        operation.addParameter(header("Consistency-Token", "A position from a command's answer "
                + "(`topic:partition:offset`): the query answers only once the projection has reached it, reading "
                + "strongly consistently, or fails with 503 after `cabinet.consistency.max-wait`, or at once when "
                + "the event there is parked behind a dead letter (`parked`).", false));
        problem(operation, "503", "Not projected up to the `Consistency-Token` in time, or the store did not answer "
                + "(`Retry-After`), or the event at the token is parked behind a dead letter (`parked`)");
    }

    private static void describeCommand(Operation operation, boolean operatorOnly) {
        if (!operatorOnly) {
            operation.addParameter(header("Idempotency-Key", "Any string of 1 to 255 characters: a retry with the "
                    + "same key and body answers the same as the first request and writes no second event (from any "
                    + "instance, for a day); the same key with another body is a 422.", false));
            operation.addParameter(header("Prefer", "`wait=N` (RFC 7240): answer once the projection applied the "
                    + "event (200 `applied`), rejected it (409) or parked it (202 `parked`), at most N seconds "
                    + "(202 `pending` then).", false));
            answer(operation, "202", "The event is in the log (`Location` names the resource); with "
                    + "`Prefer: wait`, the projection did not apply it in time (`pending`) or parked it (`parked`)");
            answer(operation, "200", "With `Prefer: wait`: the projection applied the event (`applied`)");
            problem(operation, "409", "The command does not fit the current state, (with `Prefer: wait`) the "
                    + "projector rejected it, or the `Idempotency-Key`'s first request still runs "
                    + "(`idempotency-key-in-use`: send it again after `Retry-After`)");
            problem(operation, "422", "The `Idempotency-Key` was used before with another body");
            problem(operation, "503", COMMAND_UNAVAILABLE);
        }
        if (operatorOnly) {
            problem(operation, "409", "The operation does not fit the current state, which `detail` names (a parked "
                    + "event that still fails, another retry or discard of the key under way, a rebuild under way or "
                    + "not caught up)");
        } else {
            problem(operation, "410", "The person whose data the command carries, or who sends it, was erased");
        }
        problem(operation, "401", "No valid bearer token");
        problem(operation, "403", "The token's subject may not do this");
        problem(operation, "413", "The body is larger than the instance accepts (`quarkus.http.limits.max-body-size`)");
        problem(operation, "415", "The body is not `application/json`");
    }

    /**
     * A command's own answer ({@link Accepted}, or the {@code Prefer: wait} outcome): resources answer a
     * {@code Response}, in which the scanner sees no type, so without this a generated client would drop the body.
     */
    private static void answer(Operation operation, String status, String description) {
        APIResponse documented = operation.getResponses() == null ? null
                : operation.getResponses().getAPIResponse(status);
        Schema commandAnswer = OASFactory.createSchema().ref("#/components/schemas/" + COMMAND_ANSWER);
        MediaType own = documented == null || documented.getContent() == null ? null
                : documented.getContent().getMediaType("application/json");
        if (own != null && own.getSchema() != null) {
            // The resource documents what it answers when nothing changed (a bookmark removal that finds neither the
            // post nor the bookmark): either that or
            // the command's answer.
            own.setSchema(OASFactory.createSchema().oneOf(List.of(commandAnswer, own.getSchema())));
            documented.setDescription(description + "; or: " + documented.getDescription());
            return;
        }
        operation.getResponses().addAPIResponse(status, OASFactory.createAPIResponse().description(description)
                .content(OASFactory.createContent().addMediaType("application/json", OASFactory.createMediaType()
                        .schema(commandAnswer))));
    }


    private static void problem(Operation operation, String status, String description) {
        APIResponses responses = operation.getResponses() == null ? OASFactory.createAPIResponses()
                : operation.getResponses();
        operation.setResponses(responses);
        APIResponse response = responses.hasAPIResponse(status) ? responses.getAPIResponse(status)
                : OASFactory.createAPIResponse().description(description);
        // Generated responses (e.g. 400 for validated parameters) say nothing of the body: it is always a problem.
        response.setContent(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref("#/components/schemas/" + PROBLEM))));
        responses.addAPIResponse(status, response);
    }

    private static Parameter header(String name, String description, boolean required) {
        return OASFactory.createParameter().name(name).in(Parameter.In.HEADER).required(required)
                .description(description).schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING));
    }

    private static Schema commandAnswerSchema() {
        Schema string = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("The event a command appended: `position` (`topic:partition:offset`) is the "
                        + "`Consistency-Token` that reads it; `id` is the resource it created or changed; `outcome` "
                        + "and `detail` only with `Prefer: wait`")
                .addProperty("eventId", string).addProperty("type", string).addProperty("position", string)
                .addProperty("id", string)
                .addProperty("outcome", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                        .enumeration(List.of("applied", "pending", "parked")))
                .addProperty("detail", string)
                .addProperty("upload", OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                        .description("Only for a file's upload: the presigned request that uploads its content")
                        .addProperty("method", string).addProperty("url", string)
                        .addProperty("headers", OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                                .additionalPropertiesSchema(string))
                        .addProperty("expiresAt", string));
    }

    private static Schema described(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING).description(description);
    }

    private static Schema problemSchema() {
        Schema string = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("An RFC 9457 problem; `type` is stable (`urn:cabinet:problem:*`, see docs/api.md)")
                .addProperty("type", string).addProperty("title", string)
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
                .addProperty("detail", string).addProperty("instance", string)
                .addProperty("eventId", described("`outcome-unknown`: the event that may be in the log"))
                .addProperty("id", described("`outcome-unknown`: the resource it would create or change"))
                .addProperty("outcome", described("`outcome-unknown`: where the outcome will be told "
                        + "(`/commands/{eventId}`)"))
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                        .items(OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                                .addProperty("field", string).addProperty("message", string)));
    }
}
