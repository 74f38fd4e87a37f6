package dev.cabinet.table;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * One conditional UpdateItem, built without hand-written expression strings: every name and value becomes a
 * placeholder, and the conditions are ANDed. {@link #guardedBy} is the idempotency guard most projections use.
 */
public final class ItemUpdate {

    private static final Pattern VALUE_PLACEHOLDER = Pattern.compile(":v[0-9]+");

    private final Key key;
    /** The item type whose declared attributes alone it writes; null: unchecked ({@link #of(Key, ItemType)}). */
    private ItemType declared;
    private final List<String> sets = new ArrayList<>();
    private final List<String> removes = new ArrayList<>();
    private final List<String> adds = new ArrayList<>();
    private final List<String> deletes = new ArrayList<>();
    private final List<String> conditions = new ArrayList<>();
    private final Map<String, String> names = new HashMap<>();
    private final Map<String, AttributeValue> values = new HashMap<>();
    /** Value placeholders left out of a recorded copy, each with the attribute it sets ({@link #withholding}). */
    private final Map<String, String> withheld = new java.util.TreeMap<>();

    private ItemUpdate(Key key) {
        this.key = key;
    }

    /** An update of the item at {@code key}; it creates the item if it does not exist, unless a condition forbids it. */
    public static ItemUpdate of(Key key) {
        return new ItemUpdate(key);
    }

    /** A change without a key yet, applied to many items by a fan-out ({@link #withKey} gives each its key). */
    public static ItemUpdate change() {
        return new ItemUpdate(null);
    }

    /** The same change applied to the item at {@code key}. */
    public ItemUpdate withKey(Key other) {
        ItemUpdate copy = new ItemUpdate(other);
        copy.sets.addAll(sets);
        copy.removes.addAll(removes);
        copy.adds.addAll(adds);
        copy.deletes.addAll(deletes);
        copy.conditions.addAll(conditions);
        copy.names.putAll(names);
        copy.values.putAll(values);
        copy.withheld.putAll(withheld);
        return copy;
    }

    /** Whether the update names the attribute anywhere (sets, removes or conditions it): a guard of its own. */
    public boolean mentions(String attribute) {
        return names.containsValue(attribute);
    }

    /**
     * The update as one attribute value (a map of its expression parts, names and values), so that a plan's writes can
     * be recorded on an item and carried out later exactly as they were decided ({@link #decode}).
     */
    public AttributeValue encode() {
        Map<String, AttributeValue> parts = new java.util.LinkedHashMap<>();
        if (key != null) {
            parts.put("key", AttributeValue.fromL(List.of(AttributeValue.fromS(key.pk()), AttributeValue.fromS(key.sk()))));
        }
        // empty parts are left out: the encoding is recorded on roots, which pay for its bytes
        putIfAny(parts, "set", sets);
        putIfAny(parts, "remove", removes);
        putIfAny(parts, "add", adds);
        putIfAny(parts, "delete", deletes);
        putIfAny(parts, "if", conditions);
        Map<String, AttributeValue> encodedNames = new java.util.TreeMap<>();
        names.forEach((placeholder, name) -> encodedNames.put(placeholder, AttributeValue.fromS(name)));
        parts.put("names", AttributeValue.fromM(encodedNames));
        parts.put("values", AttributeValue.fromM(new java.util.TreeMap<>(values)));
        if (!withheld.isEmpty()) {
            Map<String, AttributeValue> encodedWithheld = new java.util.TreeMap<>();
            withheld.forEach((placeholder, name) -> encodedWithheld.put(placeholder, AttributeValue.fromS(name)));
            parts.put("withheld", AttributeValue.fromM(encodedWithheld));
        }
        return AttributeValue.fromM(parts);
    }

    /**
     * A copy without the values it SETs these attributes to (a SET, or a SET if absent), for a record that must not
     * hold them: a person's data recorded for a redo would outlive their erasure. The copy is not written until
     * {@link #filledFrom} gives them back; {@link #withheld} names them.
     */
    public ItemUpdate withholding(Set<String> attributes) {
        ItemUpdate copy = withKey(key);
        for (String set : copy.sets) {
            String attribute = copy.names.get(set.substring(0, set.indexOf(' ')));
            if (attributes.contains(attribute)) {
                Matcher placeholders = VALUE_PLACEHOLDER.matcher(set);
                while (placeholders.find()) {
                    copy.values.remove(placeholders.group());
                    copy.withheld.put(placeholders.group(), attribute);
                }
            }
        }
        return copy;
    }

    /** The attributes whose values {@link #withholding} left out, by their value placeholders. */
    public Map<String, String> withheld() {
        return Map.copyOf(withheld);
    }

    /** The value a SET (or a SET if absent) of the attribute writes, if the update has one. */
    public Optional<AttributeValue> valueSet(String attribute) {
        for (Map.Entry<String, String> name : names.entrySet()) {
            if (!name.getValue().equals(attribute)) {
                continue;
            }
            for (String set : sets) {
                Matcher placeholders = VALUE_PLACEHOLDER.matcher(set);
                if (set.startsWith(name.getKey() + " = ") && placeholders.find()) {
                    return Optional.ofNullable(values.get(placeholders.group()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * This update with its withheld values given back by {@code decided} (the value each attribute had in the same
     * write decided again, if it has one): a value the decision no longer gives (the person was erased meanwhile) is
     * left out with the SET that wrote it.
     */
    public ItemUpdate filledFrom(Function<String, Optional<AttributeValue>> decided) {
        ItemUpdate copy = withKey(key);
        withheld.forEach((placeholder, attribute) -> {
            Optional<AttributeValue> value = decided.apply(attribute);
            if (value.isPresent()) {
                copy.values.put(placeholder, value.get());
            } else {
                Pattern exact = exactly(placeholder);
                copy.sets.removeIf(set -> exact.matcher(set).find());
            }
        });
        copy.withheld.clear();
        copy.names.keySet().removeIf(name -> !copy.used(name));
        return copy;
    }

    /** The update {@link #encode} recorded. */
    public static ItemUpdate decode(AttributeValue encoded) {
        Map<String, AttributeValue> parts = encoded.m();
        AttributeValue key = parts.get("key");
        ItemUpdate update = new ItemUpdate(key == null ? null : new Key(key.l().get(0).s(), key.l().get(1).s()));
        update.sets.addAll(strings(parts.get("set")));
        update.removes.addAll(strings(parts.get("remove")));
        update.adds.addAll(strings(parts.get("add")));
        update.deletes.addAll(strings(parts.get("delete")));
        update.conditions.addAll(strings(parts.get("if")));
        parts.get("names").m().forEach((placeholder, name) -> update.names.put(placeholder, name.s()));
        update.values.putAll(parts.get("values").m());
        if (parts.containsKey("withheld")) {
            parts.get("withheld").m().forEach((placeholder, name) -> update.withheld.put(placeholder, name.s()));
        }
        return update;
    }

    private static AttributeValue strings(List<String> parts) {
        return AttributeValue.fromL(parts.stream().map(AttributeValue::fromS).toList());
    }

    private static List<String> strings(AttributeValue list) {
        return list == null ? List.of() : list.l().stream().map(AttributeValue::s).toList();
    }

    private static void putIfAny(Map<String, AttributeValue> parts, String name, List<String> strings) {
        if (!strings.isEmpty()) {
            parts.put(name, strings(strings));
        }
    }

    /** Whether the update carries a condition of its own (a guard, an existence or compare-and-set check). */
    public boolean hasCondition() {
        return !conditions.isEmpty();
    }

    /** Also stamps the item's entity name, as every item carries it. */
    public static ItemUpdate of(Key key, String itemType) {
        return new ItemUpdate(key).set(KeyPlan.TYPE, itemType);
    }

    /**
     * An update of an item of {@code type} that writes only what the key plan declares of it (its attributes and its
     * key's placeholders): writing any other attribute fails at once, so that the key plan and docs/key-plan.md
     * cannot miss an attribute the code writes. For the items the projector keeps for itself (its progress, parked
     * keys, event outcomes), whose attributes no stream's bookkeeping adds to.
     */
    public static ItemUpdate of(Key key, ItemType type) {
        if (!type.matches(key)) {
            throw new IllegalArgumentException(key + " is not the key of a " + type.name());
        }
        ItemUpdate update = of(key, type.name());
        update.declared = type;
        return update;
    }

    /** The attribute, checked against the declared item type if there is one. */
    private String written(String attribute) {
        if (declared != null) {
            declared.requireDeclared(attribute);
        }
        return name(attribute);
    }

    public Key key() {
        return key;
    }

    /** SET the attribute; a null value REMOVEs it instead. A later SET or REMOVE of the same attribute replaces it. */
    public ItemUpdate set(String attribute, Object value) {
        forget(written(attribute));
        if (value == null) {
            removes.add(name(attribute));
        } else {
            sets.add(name(attribute) + " = " + value(AttributeValues.of(value)));
        }
        return this;
    }

    /** SET the attribute only when the item does not have it yet. */
    public ItemUpdate setIfAbsent(String attribute, Object value) {
        String n = written(attribute);
        sets.add(n + " = if_not_exists(" + n + ", " + value(AttributeValues.of(value)) + ")");
        return this;
    }

    /** SET a number attribute to its current value (0 when absent) plus {@code delta}. */
    public ItemUpdate increment(String attribute, long delta) {
        String n = written(attribute);
        sets.add(n + " = if_not_exists(" + n + ", " + value(AttributeValue.fromN("0")) + ") + "
                + value(AttributeValue.fromN(Long.toString(delta))));
        return this;
    }

    /** ADD a string to a string set. */
    public ItemUpdate addToSet(String attribute, String element) {
        return addToSet(attribute, List.of(element));
    }

    /** ADD strings to a string set. */
    public ItemUpdate addToSet(String attribute, Collection<String> elements) {
        adds.add(written(attribute) + " " + value(stringSet(attribute, elements)));
        return this;
    }

    /** DELETE a string from a string set. */
    public ItemUpdate deleteFromSet(String attribute, String element) {
        return deleteFromSet(attribute, List.of(element));
    }

    /** DELETE strings from a string set. */
    public ItemUpdate deleteFromSet(String attribute, Collection<String> elements) {
        deletes.add(name(attribute) + " " + value(stringSet(attribute, elements)));
        return this;
    }

    /** The elements as a string set value: each once (a set value may not repeat one), and at least one. */
    private static AttributeValue stringSet(String attribute, Collection<String> elements) {
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("no strings for the set " + attribute);
        }
        return AttributeValue.fromSs(List.copyOf(new LinkedHashSet<>(elements)));
    }

    /**
     * Applies only if the item has not seen this version or a later one of the same stream, and records it. A replayed
     * or redelivered event therefore changes nothing, and an older event never overwrites a newer one.
     */
    public ItemUpdate guardedBy(String versionAttribute, long version) {
        String n = written(versionAttribute);
        String v = value(AttributeValue.fromN(Long.toString(version)));
        conditions.add("(attribute_not_exists(" + n + ") OR " + n + " < " + v + ")");
        sets.add(n + " = " + v);
        return this;
    }

    /** Applies only if the attribute is missing or holds a number below {@code value}. */
    public ItemUpdate onlyIfBelow(String attribute, long value) {
        String n = name(attribute);
        conditions.add("(attribute_not_exists(" + n + ") OR " + n + " < "
                + value(AttributeValue.fromN(Long.toString(value))) + ")");
        return this;
    }

    /** Applies only to an item that exists: an update driven by an event never recreates an item that is gone. */
    public ItemUpdate onlyIfExists() {
        conditions.add("attribute_exists(" + name(Key.PK) + ")");
        return this;
    }

    /** Applies only if the attribute holds exactly this value: a compare-and-set on what the writer read. */
    public ItemUpdate onlyIfEquals(String attribute, Object value) {
        conditions.add(name(attribute) + " = " + value(AttributeValues.of(value)));
        return this;
    }

    /** Applies only if the attribute is missing or holds exactly this value. */
    public ItemUpdate onlyIfLacksOrEquals(String attribute, Object value) {
        String n = name(attribute);
        conditions.add("(attribute_not_exists(" + n + ") OR " + n + " = " + value(AttributeValues.of(value)) + ")");
        return this;
    }

    public ItemUpdate onlyIfHas(String attribute) {
        conditions.add("attribute_exists(" + name(attribute) + ")");
        return this;
    }

    public ItemUpdate onlyIfLacks(String attribute) {
        conditions.add("attribute_not_exists(" + name(attribute) + ")");
        return this;
    }

    /** Applies only if the string set does not contain the element. */
    public ItemUpdate onlyIfSetLacks(String attribute, String element) {
        conditions.add("NOT contains(" + name(attribute) + ", " + value(AttributeValue.fromS(element)) + ")");
        return this;
    }

    public UpdateItemRequest toRequest(String tableName) {
        if (!withheld.isEmpty()) {
            throw new IllegalStateException(key + ": the values of " + Set.copyOf(withheld.values())
                    + " were withheld from the record and not given back (filledFrom)");
        }
        StringBuilder expression = new StringBuilder();
        clause(expression, "SET", sets, ", ");
        clause(expression, "REMOVE", removes, ", ");
        clause(expression, "ADD", adds, ", ");
        clause(expression, "DELETE", deletes, ", ");
        UpdateItemRequest.Builder request = UpdateItemRequest.builder()
                .tableName(tableName)
                .key(key.toAttributes())
                .updateExpression(expression.toString().trim())
                .expressionAttributeNames(names);
        if (!values.isEmpty()) {
            request.expressionAttributeValues(values);
        }
        if (!conditions.isEmpty()) {
            request.conditionExpression(String.join(" AND ", conditions));
        }
        return request.build();
    }

    /**
     * The update as text with names and values filled in, e.g. {@code POST#p1/METADATA: SET title = "Hi" IF ...}: what
     * table-style tests of decisions compare, and what equality means.
     */
    @Override
    public String toString() {
        StringBuilder expression = new StringBuilder();
        clause(expression, "SET", sets, ", ");
        clause(expression, "REMOVE", removes, ", ");
        clause(expression, "ADD", adds, ", ");
        clause(expression, "DELETE", deletes, ", ");
        String text = expression.toString().trim();
        if (!conditions.isEmpty()) {
            text += " IF " + String.join(" AND ", conditions);
        }
        for (Map.Entry<String, String> name : names.entrySet()) {
            text = text.replaceAll(java.util.regex.Pattern.quote(name.getKey()) + "\\b",
                    java.util.regex.Matcher.quoteReplacement(name.getValue()));
        }
        for (Map.Entry<String, AttributeValue> value : values.entrySet()) {
            text = text.replaceAll(java.util.regex.Pattern.quote(value.getKey()) + "\\b",
                    java.util.regex.Matcher.quoteReplacement(AttributeValues.text(value.getValue())));
        }
        return (key == null ? "*" : key.pk() + "/" + key.sk()) + ": " + text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ItemUpdate update && toString().equals(update.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    private static void clause(StringBuilder expression, String keyword, List<String> parts, String separator) {
        if (!parts.isEmpty()) {
            expression.append(keyword).append(' ').append(String.join(separator, parts)).append(' ');
        }
    }

    private String name(String attribute) {
        for (Map.Entry<String, String> entry : names.entrySet()) {
            if (entry.getValue().equals(attribute)) {
                return entry.getKey();
            }
        }
        // names.size() may be taken: filledFrom drops the names of the SETs it leaves out
        int next = names.size();
        while (names.containsKey("#a" + next)) {
            next++;
        }
        String placeholder = "#a" + next;
        names.put(placeholder, attribute);
        return placeholder;
    }

    private String value(AttributeValue value) {
        int next = values.size();
        // a withheld value's placeholder stays its own, to be given back by filledFrom
        while (values.containsKey(":v" + next) || withheld.containsKey(":v" + next)) {
            next++;
        }
        String placeholder = ":v" + next;
        values.put(placeholder, value);
        return placeholder;
    }

    /** Drops an earlier SET or REMOVE of the attribute, and the values only it used (DynamoDB refuses unused ones). */
    private void forget(String name) {
        removes.remove(name);
        List<String> dropped = sets.stream().filter(set -> set.startsWith(name + " = ")).toList();
        if (dropped.isEmpty()) {
            return;
        }
        sets.removeAll(dropped);
        for (String set : dropped) {
            Matcher placeholders = VALUE_PLACEHOLDER.matcher(set);
            while (placeholders.find()) {
                String placeholder = placeholders.group();
                if (!used(placeholder)) {
                    values.remove(placeholder);
                }
            }
        }
    }

    /** The placeholder where it stands in an expression ({@code :v1}, not the start of {@code :v10}). */
    private static Pattern exactly(String placeholder) {
        return Pattern.compile(Pattern.quote(placeholder) + "(?![0-9])");
    }

    private boolean used(String placeholder) {
        Pattern exact = exactly(placeholder);
        return java.util.stream.Stream.of(sets, removes, adds, deletes, conditions).flatMap(List::stream)
                .anyMatch(part -> exact.matcher(part).find());
    }
}
