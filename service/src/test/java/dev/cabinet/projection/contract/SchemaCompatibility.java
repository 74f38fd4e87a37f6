package dev.cabinet.projection.contract;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether events written under one JSON Schema of the contract can be read under another, for the keywords the
 * contract uses (type, properties, required, pattern, maxLength, minimum, maximum, enum, items, minItems, maxItems,
 * additionalProperties), as the projector's validator reads them. Pure: two schemas in, the differences that break a
 * reader out, each saying what changed and which readers it breaks.
 * <p>
 * The content model is open ({@code additionalProperties: true}: a reader ignores fields it does not know, so a producer
 * may add one before every reader knows it), and a field no version of the schema declares is taken to be absent from
 * events. Schema registries check open models stricter: under them, adding any optional field breaks backward
 * compatibility, since an old event might have carried that name with another type. Cabinet decides otherwise on
 * purpose: its producers write no undeclared field, and another producer that does is outside the contract. So adding
 * or removing an optional field is compatible both ways; adding a required one breaks old events, and dropping a
 * requirement breaks old readers.
 */
final class SchemaCompatibility {

    /** Readers of the older schema meeting events written under the newer one. */
    static final String FORWARD = "readers of the older schema cannot read events written under the newer";
    /** Readers of the newer schema meeting events written under the older one (the log keeps them). */
    static final String BACKWARD = "readers of the newer schema cannot read events written under the older";

    private SchemaCompatibility() {
    }

    /** What breaks readers between {@code older} and {@code newer}, in either direction; empty when nothing does. */
    static List<String> breaks(JsonNode older, JsonNode newer) {
        List<String> problems = new ArrayList<>();
        compare("", older, newer, problems);
        return problems;
    }

    private static void compare(String at, JsonNode older, JsonNode newer, List<String> problems) {
        String where = at.isEmpty() ? "the event" : at;
        Set<String> olderTypes = types(older);
        Set<String> newerTypes = types(newer);
        if (!newerTypes.containsAll(olderTypes)) {
            problems.add(where + ": type " + olderTypes + " became " + newerTypes + ": " + BACKWARD);
        }
        if (!olderTypes.containsAll(newerTypes)) {
            problems.add(where + ": type " + olderTypes + " became " + newerTypes + ": " + FORWARD);
        }
        same(where, "pattern", older, newer, problems);
        bound(where, "maxLength", older, newer, true, problems);
        bound(where, "maximum", older, newer, true, problems);
        bound(where, "maxItems", older, newer, true, problems);
        bound(where, "minimum", older, newer, false, problems);
        bound(where, "minItems", older, newer, false, problems);
        enumeration(where, older, newer, problems);
        if (older.has("additionalProperties") || newer.has("additionalProperties")) {
            boolean olderOpen = older.path("additionalProperties").asBoolean(true);
            boolean newerOpen = newer.path("additionalProperties").asBoolean(true);
            if (olderOpen != newerOpen) {
                problems.add(where + ": additionalProperties " + olderOpen + " became " + newerOpen + ": "
                        + (newerOpen ? FORWARD : BACKWARD));
            }
        }
        Set<String> olderRequired = strings(older.path("required"));
        Set<String> newerRequired = strings(newer.path("required"));
        for (String field : newerRequired) {
            if (!olderRequired.contains(field)) {
                problems.add(field(at, field) + ": now required: " + BACKWARD);
            }
        }
        for (String field : olderRequired) {
            if (!newerRequired.contains(field)) {
                problems.add(field(at, field) + ": no longer required: " + FORWARD);
            }
        }
        JsonNode olderProperties = older.path("properties");
        JsonNode newerProperties = newer.path("properties");
        for (Iterator<String> names = olderProperties.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (newerProperties.has(name)) {
                compare(field(at, name), olderProperties.get(name), newerProperties.get(name), problems);
            }
        }
        if (older.has("items") && newer.has("items")) {
            compare(where + "[]", older.get("items"), newer.get("items"), problems);
        } else if (older.has("items") != newer.has("items")) {
            problems.add(where + ": items " + (older.has("items") ? "no longer" : "now") + " described: "
                    + (older.has("items") ? FORWARD : BACKWARD));
        }
    }

    private static void same(String where, String keyword, JsonNode older, JsonNode newer, List<String> problems) {
        if (!older.path(keyword).equals(newer.path(keyword))) {
            // two patterns cannot be compared for the strings they match: any change may break either side
            problems.add(where + ": " + keyword + " " + older.path(keyword) + " became " + newer.path(keyword) + ": "
                    + BACKWARD + ", and " + FORWARD);
        }
    }

    /** A bound that may only widen for older events ({@code upper}: a maximum; else a minimum), and never narrow. */
    private static void bound(String where, String keyword, JsonNode older, JsonNode newer, boolean upper,
            List<String> problems) {
        JsonNode before = older.get(keyword);
        JsonNode after = newer.get(keyword);
        if (before == null && after == null || before != null && after != null
                && before.decimalValue().compareTo(after.decimalValue()) == 0) {
            return;
        }
        boolean narrower = after != null && (before == null
                || (upper ? after.decimalValue().compareTo(before.decimalValue()) < 0
                        : after.decimalValue().compareTo(before.decimalValue()) > 0));
        problems.add(where + ": " + keyword + " " + before + " became " + after + ": " + (narrower ? BACKWARD : FORWARD));
    }

    private static void enumeration(String where, JsonNode older, JsonNode newer, List<String> problems) {
        if (!older.has("enum") && !newer.has("enum")) {
            return;
        }
        Set<String> before = older.has("enum") ? strings(older.get("enum")) : null;
        Set<String> after = newer.has("enum") ? strings(newer.get("enum")) : null;
        if (after != null && (before == null || !after.containsAll(before))) {
            problems.add(where + ": enum " + before + " became " + after + ": " + BACKWARD);
        }
        if (before != null && (after == null || !before.containsAll(after))) {
            problems.add(where + ": enum " + before + " became " + after + ": " + FORWARD);
        }
    }

    private static Set<String> types(JsonNode schema) {
        JsonNode type = schema.path("type");
        Set<String> types = type.isArray() ? strings(type) : type.isTextual() ? Set.of(type.asText()) : Set.of("any");
        if (types.contains("number")) {
            // an integer is a number: "integer" widened to "number" reads every old value
            Set<String> widened = new TreeSet<>(types);
            widened.add("integer");
            return widened;
        }
        return new TreeSet<>(types);
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> values = new TreeSet<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }

    private static String field(String at, String name) {
        return at.isEmpty() ? name : at + "." + name;
    }
}
