package dev.cabinet.eventlog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.regex.JoniRegularExpressionFactory;

/**
 * The published event contract: one JSON Schema (draft 2020-12) per event type and version, kept in
 * {@value #FOLDER} and served by the app under {@code /contract/events/}. Patterns run with ECMAScript semantics (joni),
 * as a producer in any language reads them; with the JDK's engine {@code $} would accept a trailing line break.
 */
public final class EventContract {

    /** Where the schemas live on the classpath; {@code META-INF/resources} is what Quarkus serves as static files. */
    public static final String FOLDER = "META-INF/resources/contract/events/";
    /** The most violations one refusal names: enough to fix a producer, short enough for a Kafka header. */
    private static final int MAX_REPORTED = 5;

    private final Map<String, Schema> schemaByType = new TreeMap<>();
    private final Map<String, JsonNode> documentByType = new TreeMap<>();

    /** Loads the schema of every type; a type without one is a build mistake, so it fails startup. */
    public EventContract(Collection<String> typeNames, ObjectMapper json) {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder()
                        .regularExpressionFactory(JoniRegularExpressionFactory.getInstance())
                        .build()));
        for (String type : typeNames) {
            JsonNode document = read(type, json);
            documentByType.put(type, document);
            schemaByType.put(type, registry.getSchema(document));
        }
    }

    /** The classpath location of a type's schema. */
    public static String location(String typeName) {
        return FOLDER + typeName + ".json";
    }

    /** The schema document of a type, as published. */
    public JsonNode document(String typeName) {
        JsonNode document = documentByType.get(typeName);
        if (document == null) {
            throw new IllegalArgumentException("no schema for " + typeName);
        }
        return document;
    }

    /** What in {@code data} breaks the type's schema, as "location: message" lines; empty when it conforms. */
    public List<String> violations(String typeName, JsonNode data) {
        Schema schema = schemaByType.get(typeName);
        if (schema == null) {
            throw new IllegalArgumentException("no schema for " + typeName);
        }
        List<Error> errors = schema.validate(data);
        return errors.stream().limit(MAX_REPORTED).map(EventContract::describe).toList();
    }

    private static String describe(Error error) {
        String message = error.getMessage();
        String location = error.getInstanceLocation().toString();
        return message.startsWith(location) ? message : location + ": " + message;
    }

    private static JsonNode read(String type, ObjectMapper json) {
        String location = location(type);
        try (InputStream in = EventContract.class.getClassLoader().getResourceAsStream(location)) {
            if (in == null) {
                throw new IllegalStateException("event type " + type + " has no schema at " + location);
            }
            return json.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + location, e);
        }
    }
}
