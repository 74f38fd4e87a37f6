package dev.cabinet.table;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Named values for {@link ItemType#write} and {@link ItemType#keyFrom}, from attribute names and values in pairs; a
 * null value is left out (an optional field of an event that was not given), which {@code Map.of} cannot do.
 */
public final class Values {

    private Values() {
    }

    public static Map<String, Object> of(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                values.put((String) namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        return values;
    }
}
