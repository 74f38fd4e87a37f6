package dev.cabinet.erasure;

import java.lang.reflect.RecordComponent;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import javax.crypto.SecretKey;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.erasure.PersonalData;
import dev.cabinet.table.DeclaredCopy;

/**
 * Seals and reveals the {@link PersonalData} fields of event data as JSON, given the keys: pure, so that what the log
 * holds and what an erased person's events read as are tested without a store.
 */
public final class PersonalFields {

    /** What an erased person's name and text read as, in events and in every copy of them. */
    public static final String ERASED = DeclaredCopy.ERASED;

    private static final ClassValue<Map<String, Boolean>> FIELDS = new ClassValue<>() {
        @Override
        protected Map<String, Boolean> computeValue(Class<?> type) {
            Map<String, Boolean> fields = new LinkedHashMap<>();
            if (type.isRecord()) {
                for (RecordComponent component : type.getRecordComponents()) {
                    PersonalData mark = component.getAnnotation(PersonalData.class);
                    if (mark != null) {
                        fields.put(component.getName(), mark.optional());
                    }
                }
            }
            return Map.copyOf(fields);
        }
    };

    private PersonalFields() {
    }

    /** The personal fields of an event's data class, each with whether it may be absent. */
    public static Map<String, Boolean> of(Class<?> dataClass) {
        return FIELDS.get(dataClass);
    }

    /** Whether events of this data class carry personal data. */
    public static boolean carries(Class<?> dataClass) {
        return !of(dataClass).isEmpty();
    }

    /** Seals every personal field of {@code data} that holds text, in place, under the subject's key. */
    public static ObjectNode seal(ObjectNode data, Class<?> dataClass, String subject, SecretKey key) {
        for (String field : of(dataClass).keySet()) {
            JsonNode value = data.get(field);
            if (value != null && value.isTextual()) {
                data.set(field, SealedValues.seal(subject, field, value.asText(), key));
            }
        }
        return data;
    }

    /** The subjects whose keys the sealed values in {@code data} are under (top-level fields only, as sealed). */
    public static Set<String> subjects(JsonNode data) {
        Set<String> subjects = new TreeSet<>();
        for (Iterator<JsonNode> values = data.elements(); values.hasNext();) {
            JsonNode value = values.next();
            if (SealedValues.isSealed(value)) {
                subjects.add(SealedValues.subjectOf(value));
            }
        }
        return subjects;
    }

    /**
     * {@code data} with every sealed value opened: under its subject's key where {@code keys} has one, else (the
     * subject was erased) as {@link #ERASED}, or absent for an optional field. A copy; the record's bytes stay as they
     * are. Fails with {@link IllegalArgumentException} on a value that does not open with its subject's key.
     */
    public static JsonNode reveal(JsonNode data, Class<?> dataClass, Map<String, Optional<SecretKey>> keys) {
        if (!data.isObject() || subjects(data).isEmpty()) {
            return data;
        }
        ObjectNode revealed = ((ObjectNode) data).deepCopy();
        Map<String, Boolean> personal = of(dataClass);
        for (Iterator<Map.Entry<String, JsonNode>> fields = data.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!SealedValues.isSealed(field.getValue())) {
                continue;
            }
            Optional<SecretKey> key = keys.getOrDefault(SealedValues.subjectOf(field.getValue()), Optional.empty());
            if (key.isPresent()) {
                revealed.put(field.getKey(), SealedValues.open(field.getValue(), field.getKey(), key.get()));
            } else if (Boolean.TRUE.equals(personal.get(field.getKey()))) {
                revealed.putNull(field.getKey());
            } else {
                revealed.put(field.getKey(), ERASED);
            }
        }
        return revealed;
    }
}
