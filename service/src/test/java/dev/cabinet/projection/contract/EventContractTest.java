package dev.cabinet.projection.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.cabinet.erasure.PersonalFields;
import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventContract;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.EventCatalog;
import dev.cabinet.support.EventExamples;
import dev.cabinet.support.GeneratedFiles;

/**
 * The published contract and the Java event types cannot drift: every type has exactly one schema and one AsyncAPI
 * message, on its topic; the schemas name the records' fields; and for thousands of mutations of each schema's example
 * (fields removed, nulled, retyped, too long, with '#', a line break or astral characters) the schema's verdict is the
 * Java record's verdict, an integer written with a zero fraction or an exponent ({@code 7.0}, {@code 1E+3}) included.
 */
class EventContractTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper STRICT = EventDecoder.strict(JSON);
    /** 2^53 - 1: the largest integer a double, and so JavaScript and many JSON readers, holds exactly. */
    private static final java.math.BigDecimal SAFE = new java.math.BigDecimal(9_007_199_254_740_991L);

    private static Map<String, EventType<?>> catalog;
    private static EventDecoder decoder;

    @BeforeAll
    static void loadCatalog() {
        catalog = scanCatalog();
    }

    /**
     * The decoder over the schemas as built, made when a test first needs it: a new type has no schema until {@link
     * #theSchemasAreRenderedFromTheRecords} writes it, and the tests that need none still run (and write it) then.
     */
    private static synchronized EventDecoder decoder() {
        if (decoder == null) {
            decoder = new EventDecoder(catalog, JSON);
        }
        return decoder;
    }

    /** Every event type the code declares, by name ({@link EventCatalog}). */
    static Map<String, EventType<?>> scanCatalog() {
        return EventCatalog.all();
    }

    @Test
    void everyEventTypeHasExactlyOneSchemaAndNoSchemaLacksAType() throws IOException, URISyntaxException {
        assertTrue(catalog.size() >= 22, "the catalog scan found only " + catalog.keySet());
        Path folder = Path.of(getClass().getClassLoader().getResource(EventContract.FOLDER).toURI());
        Set<String> files;
        try (Stream<Path> listing = Files.list(folder)) {
            files = listing.map(path -> path.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(catalog.keySet().stream().map(name -> name + ".json").collect(Collectors.toCollection(TreeSet::new)),
                files);
    }

    /**
     * Each schema is what its record declares ({@link EventSchemas}): a stale one is rewritten and the test fails, so
     * that no schema is edited by hand and none drifts from its record.
     */
    @Test
    void theSchemasAreRenderedFromTheRecords() {
        Path folder = Path.of("src/main/resources").resolve(EventContract.FOLDER);
        Map<Path, String> rendered = new TreeMap<>();
        for (EventType<?> type : catalog.values()) {
            rendered.put(folder.resolve(type.name() + ".json"), EventSchemas.render(type));
        }
        GeneratedFiles.checkAll(rendered);
    }

    /**
     * A field of one of a set takes exactly the values its {@link FieldSchema} lists: the record accepts each, and
     * refuses any other naming the same set (the mutations above try values outside the list, never another inside).
     */
    @Test
    void aOneOfFieldsListIsTheSetItsRecordChecks() throws ReflectiveOperationException {
        int checked = 0;
        for (EventType<?> type : catalog.values()) {
            Class<?> record = type.dataClass();
            RecordComponent[] components = record.getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                FieldSchema field = components[i].getAnnotation(FieldSchema.class);
                if (field == null || field.value() != FieldSchema.Kind.ONE_OF) {
                    continue;
                }
                String name = components[i].getName();
                for (String allowed : field.allowed()) {
                    withValue(record, name, allowed);
                }
                Throwable refused = assertThrows(InvocationTargetException.class,
                        () -> withValue(record, name, "none-of-these")).getCause();
                assertEquals(components[i].getName() + " must be one of " + new TreeSet<>(List.of(field.allowed())),
                        refused.getMessage(), type.name());
                checked++;
            }
        }
        assertTrue(checked >= 3, "role twice and an order's status, at least: " + checked);
    }

    /** The record's example with the field {@code name} set to {@code value}. */
    private static Object withValue(Class<?> record, String name, Object value) throws ReflectiveOperationException {
        return EventExamples.changed(record, (component, was) -> component.getName().equals(name) ? value : was);
    }

    @Test
    void schemasNameTheRecordFieldsTheTopicAndTheKey() {
        for (EventType<?> type : catalog.values()) {
            JsonNode schema = decoder().contract().document(type.name());
            assertEquals(type.name(), schema.path("title").asText(), "title of " + type.name());
            assertEquals(type.topic(), schema.path("x-cabinet-topic").asText(), "topic of " + type.name());
            assertFieldsMatch(type.name(), type.dataClass(), schema);
            Set<String> markedInSchema = new TreeSet<>();
            schema.path("properties").fields().forEachRemaining(field -> {
                if (field.getValue().path("x-personal-data").asBoolean(false)) {
                    markedInSchema.add(field.getKey());
                }
            });
            assertEquals(new TreeSet<>(PersonalFields.of(type.dataClass()).keySet()), markedInSchema,
                    "the fields of " + type.name() + " marked @PersonalData and x-personal-data");
            JsonNode example = schema.path("examples").path(0);
            DomainEvent event = decoder().read(example, type);
            assertEquals(example.path(schema.path("x-cabinet-key").asText()).asText(), event.aggregateId(),
                    "x-cabinet-key of " + type.name() + " is not the field the record is keyed by");
        }
    }

    @Test
    void theSchemaAcceptsExactlyWhatTheJavaTypeAccepts() {
        int checked = 0;
        List<String> disagreements = new ArrayList<>();
        for (EventType<?> type : catalog.values()) {
            JsonNode example = decoder().contract().document(type.name()).path("examples").path(0);
            assertTrue(decoder().contract().violations(type.name(), example).isEmpty(), type.name() + " example");
            for (Mutation mutation : mutationsOf((ObjectNode) example, "")) {
                JsonNode received = asReceived(mutation.document());
                List<String> violations = decoder().contract().violations(type.name(), received);
                String javaRefusal = javaRefusal(received, type);
                if (violations.isEmpty() != (javaRefusal == null)) {
                    disagreements.add(type.name() + " " + mutation.description() + ": schema says " + violations
                            + ", Java says " + (javaRefusal == null ? "valid" : javaRefusal));
                }
                checked++;
            }
        }
        System.out.printf("Event contract: %d mutations of %d schema examples, %d disagreements%n", checked,
                catalog.size(), disagreements.size());
        assertTrue(checked > 1000, "only " + checked + " mutations");
        assertEquals(List.of(), disagreements);
    }

    /**
     * Every superseded version upcasts into data its successor's schema and record accept: the example and every
     * mutation the old version accepts (so replaying an old log never dead-letters an event the old contract allowed).
     */
    @Test
    void everyAcceptedEventOfASupersededVersionUpcastsIntoAValidCurrentOne() {
        int upcast = 0;
        List<String> failures = new ArrayList<>();
        for (EventType<?> type : catalog.values()) {
            if (!type.isSuperseded()) {
                continue;
            }
            assertTrue(catalog.containsKey(type.currentName()), type.name() + " upcasts to an unknown type");
            ObjectNode example = (ObjectNode) decoder().contract().document(type.name()).path("examples").path(0);
            List<JsonNode> documents = new ArrayList<>(List.of(example));
            mutationsOf(example, "").forEach(mutation -> documents.add(asReceived(mutation.document())));
            for (JsonNode document : documents) {
                if (javaRefusal(document, type) != null) {
                    continue;
                }
                DomainEvent current = type.current(decoder().read(document, type));
                JsonNode written = asReceived(JSON.valueToTree(current));
                List<String> violations = decoder().contract().violations(type.currentName(), written);
                if (!violations.isEmpty() || !current.equals(decoder().read(written, catalog.get(type.currentName())))) {
                    failures.add(document + " -> " + written + ": " + violations);
                }
                upcast++;
            }
        }
        System.out.printf("Event contract: %d accepted events of superseded versions upcast%n", upcast);
        assertTrue(upcast > 10, "only " + upcast + " upcasts checked");
        assertEquals(List.of(), failures);
    }

    /**
     * Validators and producers in other languages read JSON numbers as doubles: no schema may name a number beyond
     * 2^53 - 1, and no current version a fractional {@code multipleOf} (0.01 is not exact in binary, so ajv and
     * Python's jsonschema refuse 19.99). Superseded versions are kept as they were published.
     */
    @Test
    void noSchemaWritesANumberThatOtherLanguagesCannotHoldExactly() {
        for (EventType<?> type : catalog.values()) {
            List<String> unsafe = new ArrayList<>();
            collectUnsafeNumbers(decoder().contract().document(type.name()), "", !type.isSuperseded(), unsafe);
            assertEquals(List.of(), unsafe, type.name());
        }
    }

    private static void collectUnsafeNumbers(JsonNode node, String path, boolean current, List<String> found) {
        if (node.isNumber() && node.decimalValue().abs().compareTo(SAFE) > 0) {
            found.add(path + " = " + node + " (beyond 2^53 - 1)");
        }
        if (current && node.isFloatingPointNumber() && node.decimalValue().stripTrailingZeros().scale() > 0
                && path.endsWith("/multipleOf")) {
            found.add(path + " = " + node + " (a fractional multipleOf)");
        }
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> collectUnsafeNumbers(field.getValue(), path + "/" + field.getKey(),
                    current, found));
        }
        for (int i = 0; node.isArray() && i < node.size(); i++) {
            collectUnsafeNumbers(node.get(i), path + "/" + i, current, found);
        }
    }

    @Test
    void aViolationNamesTheFieldAndTheRule() throws IOException {
        JsonNode data = STRICT.readTree("{\"userId\":\"a#b\",\"name\":7,\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}");
        List<String> violations = decoder().contract().violations("cabinet.user.registered.v1", data);
        System.out.println("Violations: " + violations);
        assertEquals(3, violations.size(), violations.toString());
        assertTrue(violations.stream().anyMatch(v -> v.startsWith("/userId: ") && v.contains("pattern")), violations.toString());
        assertTrue(violations.stream().anyMatch(v -> v.startsWith("/name: ") && v.contains("string")), violations.toString());
        assertTrue(violations.stream().anyMatch(v -> v.contains("email")), violations.toString());
    }

    @Test
    void theAsyncApiDocumentListsEveryTypeOnItsTopicWithItsSchema() throws IOException {
        JsonNode asyncApi;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/resources/contract/asyncapi.yaml")) {
            asyncApi = new YAMLMapper().readTree(in);
        }
        assertEquals("3.0.0", asyncApi.path("asyncapi").asText());
        Map<String, String> topicByMessage = new TreeMap<>();
        Set<String> addresses = new TreeSet<>();
        asyncApi.path("channels").fields().forEachRemaining(channel -> {
            String address = channel.getValue().path("address").asText();
            addresses.add(address);
            channel.getValue().path("messages").fieldNames().forEachRemaining(message -> topicByMessage.put(message, address));
        });
        Set<String> expectedAddresses = new TreeSet<>(Topics.ALL);
        expectedAddresses.add(Topics.DEAD_LETTERS);
        assertEquals(expectedAddresses, addresses);
        topicByMessage.remove("dead-letter");
        assertEquals(catalog.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().topic(),
                (a, b) -> a, TreeMap::new)), topicByMessage);
        JsonNode messages = asyncApi.path("components").path("messages");
        for (String type : catalog.keySet()) {
            assertEquals("./events/" + type + ".json", messages.path(type).path("payload").path("$ref").asText(), type);
        }
        JsonNode required = asyncApi.path("components").path("schemas").path("CloudEventHeaders").path("required");
        assertEquals(List.of("ce_specversion", "ce_id", "ce_source", "ce_type"),
                JSON.convertValue(required, List.class));
    }

    /**
     * The AsyncAPI document's messages follow from the event types: a new type is listed on its topic and described
     * from its schema by this test, never by hand.
     */
    @Test
    void theAsyncApiDocumentsMessagesAreGeneratedFromTheEventTypesAndTheirSchemas() throws IOException {
        Map<String, JsonNode> schemas = new TreeMap<>();
        catalog.keySet().forEach(name -> schemas.put(name, decoder().contract().document(name)));
        String committed = Files.readString(AsyncApiMessages.DOCUMENT, StandardCharsets.UTF_8);
        GeneratedFiles.check(AsyncApiMessages.DOCUMENT, AsyncApiMessages.render(committed, catalog, schemas));
    }

    private static void assertFieldsMatch(String where, Class<?> recordClass, JsonNode schema) {
        Set<String> fields = Arrays.stream(recordClass.getRecordComponents()).map(RecordComponent::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> properties = new TreeSet<>();
        schema.path("properties").fieldNames().forEachRemaining(properties::add);
        assertEquals(fields, properties, "fields of " + where);
        for (RecordComponent component : recordClass.getRecordComponents()) {
            JsonNode property = schema.path("properties").path(component.getName());
            if (component.getType().isRecord()) {
                assertFieldsMatch(where + "." + component.getName(), component.getType(), property);
            } else if (component.getType() == List.class) {
                Class<?> element = (Class<?>) ((java.lang.reflect.ParameterizedType) component.getGenericType())
                        .getActualTypeArguments()[0];
                assertFieldsMatch(where + "." + component.getName() + "[]", element, property.path("items"));
            }
        }
    }

    /** The document as the decoder reads it from a record's bytes (integers as integers, decimals exact). */
    private static JsonNode asReceived(JsonNode document) {
        try {
            return STRICT.readTree(JSON.writeValueAsBytes(document));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String javaRefusal(JsonNode document, EventType<?> type) {
        try {
            decoder().read(document, type);
            return null;
        } catch (UndecodableEventException e) {
            return e.getMessage();
        }
    }

    /** One change to an example: a field removed or replaced, anywhere in the document. */
    record Mutation(String description, JsonNode document) {
    }

    /** The example changed in one place each, at every depth (also used to compare other languages' validators). */
    static List<Mutation> mutationsOf(ObjectNode example, String path) {
        List<Mutation> mutations = new ArrayList<>();
        List<String> names = new ArrayList<>();
        example.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            String at = path + "/" + name;
            ObjectNode removed = example.deepCopy();
            removed.remove(name);
            mutations.add(new Mutation("without " + at, removed));
            for (JsonNode replacement : replacementsFor(example.get(name))) {
                ObjectNode changed = example.deepCopy();
                changed.set(name, replacement);
                mutations.add(new Mutation(at + " = " + abbreviate(replacement), changed));
            }
            JsonNode value = example.get(name);
            if (value.isArray() && value.size() > 0 && value.get(0).isObject()) {
                for (Mutation inner : mutationsOf((ObjectNode) value.get(0), at + "/0")) {
                    ObjectNode changed = example.deepCopy();
                    ((ArrayNode) changed.get(name)).set(0, inner.document());
                    mutations.add(new Mutation(inner.description(), changed));
                }
            }
        }
        ObjectNode extra = example.deepCopy();
        extra.put("addedByANewerProducer", "ignored");
        mutations.add(new Mutation(path + " with an unknown field", extra));
        return mutations;
    }

    /** Values around every bound the rules use: lengths at and past each limit, wrong types, edge numbers. */
    private static List<JsonNode> replacementsFor(JsonNode original) {
        List<JsonNode> values = new ArrayList<>(List.of(NODES.nullNode(), NODES.booleanNode(true), NODES.objectNode(),
                NODES.arrayNode(), NODES.textNode(""), NODES.textNode("#"), NODES.textNode("a#b"),
                NODES.textNode("ada\n"), NODES.textNode("x\u0001y"), NODES.textNode("2026-01-31"),
                NODES.textNode("2026-1-31"), NODES.textNode("2026-01-31T12:00:00.000Z"),
                NODES.textNode("2026-01-31T12:00:00Z"), NODES.textNode("admin"), NODES.textNode("paid"),
                NODES.textNode("boss"), NODES.textNode("7"), NODES.numberNode(0), NODES.numberNode(7),
                NODES.numberNode(-1), NODES.numberNode(100), NODES.numberNode(new java.math.BigDecimal("100.5")),
                NODES.numberNode(new java.math.BigDecimal("12.34")), NODES.numberNode(new java.math.BigDecimal("0.001")),
                NODES.numberNode(new java.math.BigDecimal("1000000000")),
                NODES.numberNode(new java.math.BigDecimal("1000000000.01")),
                NODES.numberNode(new java.math.BigInteger("9223372036854775808")),
                NODES.numberNode(Long.MAX_VALUE), NODES.numberNode(9_007_199_254_740_991L),
                NODES.numberNode(9_007_199_254_740_992L),
                // Integers as a float or an exponent: JSON Schema's integer takes both (Python writes 1200.0).
                NODES.numberNode(new java.math.BigDecimal("7.0")), NODES.numberNode(new java.math.BigDecimal("1E+3")),
                NODES.numberNode(new java.math.BigDecimal("9007199254740992.0"))));
        // Money as decimal strings: the canonical form, its bounds, and what a float or a sloppy producer writes.
        for (String amount : List.of("0.00", "19.99", "129.90", "999999999.99", "1000000000.00", "1000000000.01",
                "1000000001.00", "129.9", "129.900", "01.00", "-1.00", "+1.00", "1e3", "1.00\n", " 1.00", "1,00",
                "0.30000000000000004")) {
            values.add(NODES.textNode(amount));
        }
        for (int limit : new int[] {64, 100, 200, 254, 255, 1000, 2000, 2048, 20_000}) {
            values.add(NODES.textNode("a".repeat(limit)));
            values.add(NODES.textNode("a".repeat(limit + 1)));
            values.add(NODES.textNode("\uD83D\uDE00".repeat(limit)));
        }
        if (original.isArray()) {
            values.add(NODES.arrayNode().add(original.get(0)).add(original.get(0)));
            ArrayNode full = NODES.arrayNode();
            ArrayNode over = NODES.arrayNode();
            for (int i = 0; i < 500; i++) {
                full.add(original.get(0));
                over.add(original.get(0));
            }
            over.add(original.get(0));
            values.add(full);
            values.add(over);
        }
        return values;
    }

    private static String abbreviate(JsonNode value) {
        String text = value.toString();
        return text.length() <= 40 ? text : text.substring(0, 30) + "…(" + text.length() + " chars)";
    }
}
