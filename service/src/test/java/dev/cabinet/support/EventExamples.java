package dev.cabinet.support;

import java.lang.reflect.RecordComponent;
import java.util.function.BiFunction;

/** An event record's published example ({@code EXAMPLE}), copied with some of its fields changed. */
public final class EventExamples {

    private EventExamples() {
    }

    /**
     * The record's example with each field as {@code change} gives it from the field and its value in the example,
     * through the record's constructor (which checks it).
     */
    public static Object changed(Class<?> record, BiFunction<RecordComponent, Object, Object> change)
            throws ReflectiveOperationException {
        Object example = record.getField("EXAMPLE").get(null);
        RecordComponent[] components = record.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = change.apply(components[i], components[i].getAccessor().invoke(example));
        }
        return record.getDeclaredConstructor(types).newInstance(values);
    }
}
