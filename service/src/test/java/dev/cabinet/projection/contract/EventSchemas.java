package dev.cabinet.projection.contract;

import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.customer.OrderTotal;
import dev.cabinet.erasure.PersonalData;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
import dev.cabinet.shared.Ids;

/**
 * Renders an event type's published JSON Schema from its record: {@link EventSchema} on the record, a
 * {@link FieldSchema} on each of its fields, {@link PersonalData} where a field holds a person's data, and the record's
 * {@code EXAMPLE}. The files under {@code contract/events/} are these renderings ({@code EventContractTest}).
 */
final class EventSchemas {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Every field of an example, null ones too: an explicit null shows that a field may be null. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ID_PATTERN = "^" + Ids.PATTERN + "$";
    private static final String ID = "1 to 64 of A-Z, a-z, 0-9, _ and -";
    private static final String TIMESTAMP_PATTERN =
            "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$";
    /** The largest total's whole part, which both versions of an order's total bound. */
    private static final String MAX_TOTAL = OrderTotal.MAX.substring(0, OrderTotal.MAX.indexOf('.'));

    private EventSchemas() {
    }

    /** The schema's text as the file holds it: two-space indents, one array element a line, a final line break. */
    static String render(EventType<?> type) {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"))
                .withSeparators(Separators.createDefaultInstance()
                        .withObjectFieldValueSpacing(Separators.Spacing.AFTER));
        try {
            return JSON.writer(printer).writeValueAsString(schema(type)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode schema(EventType<?> type) {
        Class<?> data = type.dataClass();
        EventSchema published = data.getAnnotation(EventSchema.class);
        if (published == null) {
            throw new IllegalStateException(data.getName() + " (" + type.name() + ") has no @EventSchema");
        }
        ObjectNode schema = NODES.objectNode();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("$id", "urn:cabinet:event:" + type.name());
        schema.put("title", type.name());
        schema.put("description", published.description());
        if (published.deprecated()) {
            schema.put("deprecated", true);
        }
        schema.put("x-cabinet-topic", type.topic());
        schema.put("x-cabinet-key", published.key());
        if (!published.incompatibleBecause().isEmpty()) {
            schema.putObject("x-cabinet-compatibility").put("mode", "NONE")
                    .put("reason", published.incompatibleBecause());
        }
        object(schema, data);
        schema.put("additionalProperties", true);
        schema.putArray("examples").add(JSON.valueToTree(example(data)));
        return schema;
    }

    /** The record's fields as an object's properties, and those required. */
    private static void object(ObjectNode schema, Class<?> record) {
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = NODES.arrayNode();
        for (RecordComponent component : record.getRecordComponents()) {
            FieldSchema field = component.getAnnotation(FieldSchema.class);
            if (field == null) {
                throw new IllegalStateException(record.getName() + "." + component.getName() + " has no @FieldSchema");
            }
            properties.set(component.getName(), property(component, field));
            if (field.value() != FieldSchema.Kind.OPTIONAL_ID && field.value() != FieldSchema.Kind.OPTIONAL_TEXT) {
                required.add(component.getName());
            }
        }
        schema.set("required", required);
    }

    private static ObjectNode property(RecordComponent component, FieldSchema field) {
        ObjectNode property = NODES.objectNode();
        switch (field.value()) {
            case ID -> property.put("type", "string").put("pattern", ID_PATTERN).put("description", ID);
            case OPTIONAL_ID -> {
                property.set("type", NODES.arrayNode().add("string").add("null"));
                property.put("pattern", ID_PATTERN).put("description", "null, or " + ID);
            }
            case TIMESTAMP -> property.put("type", "string").put("pattern", TIMESTAMP_PATTERN)
                    .put("description", "UTC with exactly three fractional digits, e.g. 2026-01-31T12:00:00.000Z");
            case DATE -> property.put("type", "string").put("pattern", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
                    .put("description", "a UTC date, e.g. 2026-01-31");
            case TEXT -> property.put("type", "string").put("maxLength", field.max());
            case OPTIONAL_TEXT -> {
                property.set("type", NODES.arrayNode().add("string").add("null"));
                property.put("maxLength", field.max());
            }
            case ONE_OF -> {
                property.put("type", "string");
                ArrayNode allowed = property.putArray("enum");
                for (String value : field.allowed()) {
                    allowed.add(value);
                }
            }
            case COUNT -> property.put("type", "integer").put("minimum", 0).put("maximum", EventFields.MAX_COUNT)
                    .put("description", "an integer (1000.0 and 1e3 are read as 1000, as JSON Schema's integer takes "
                            + "them); at most 2^53 - 1, the largest integer every JSON reader holds exactly");
            case DECIMAL -> property.put("type", "string")
                    .put("pattern", "^(?:(?:0|[1-9][0-9]{0," + (MAX_TOTAL.length() - 2) + "})\\.[0-9]{2}|"
                            + MAX_TOTAL + "\\.00)$")
                    .put("description", "a decimal string with exactly two decimals, from \"0.00\" to \""
                            + MAX_TOTAL + ".00\", e.g. \"129.90\"");
            case AMOUNT -> property.put("type", "number").put("minimum", 0).put("maximum", Long.parseLong(MAX_TOTAL))
                    .put("multipleOf", new BigDecimal("0.01")).put("description", "an amount with at most 2 decimals");
            case PERCENT -> property.put("type", "number").put("minimum", 0).put("maximum", 100);
            case LIST -> {
                property.put("type", "array").put("minItems", field.min()).put("maxItems", field.max());
                ObjectNode items = property.putObject("items");
                Class<?> element = (Class<?>) ((ParameterizedType) component.getGenericType())
                        .getActualTypeArguments()[0];
                items.put("type", "object");
                if (!field.description().isEmpty()) {
                    items.put("description", field.description());
                }
                ObjectNode nested = NODES.objectNode();
                object(nested, element);
                items.setAll(nested);   // "type" keeps its place, first
            }
        }
        if (component.isAnnotationPresent(PersonalData.class)) {
            property.put("x-personal-data", true);
        }
        return property;
    }

    /** The record's {@code EXAMPLE}, which its own constructor has checked. */
    private static Object example(Class<?> record) {
        try {
            Field example = record.getField("EXAMPLE");
            return example.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(record.getName() + " has no public static EXAMPLE to publish", e);
        }
    }
}
