package dev.cabinet.support;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.tngtech.archunit.core.domain.JavaClass;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;

/** Every event type the code declares (a static {@link EventType} field of an event class), found once. */
public final class EventCatalog {

    /** Found once, in {@link #declared()}'s order. */
    private static volatile List<EventType<?>> declared;

    private EventCatalog() {
    }

    /** By name. */
    public static Map<String, EventType<?>> all() {
        Map<String, EventType<?>> byName = new TreeMap<>();
        declared().forEach(type -> byName.put(type.name(), type));
        return byName;
    }

    /** By class name, each class's types in the order its fields declare them (a feature's save before its removal). */
    public static List<EventType<?>> declared() {
        if (declared == null) {
            List<EventType<?>> found = new ArrayList<>();
            for (JavaClass type : ProductionClasses.all().stream()
                    .sorted(Comparator.comparing(JavaClass::getName)).toList()) {
                if (type.isAssignableTo(DomainEvent.class)) {
                    for (Field field : ProductionClasses.load(type).getDeclaredFields()) {
                        if (field.getType() == EventType.class && Modifier.isStatic(field.getModifiers())) {
                            found.add((EventType<?>) get(field));
                        }
                    }
                }
            }
            declared = List.copyOf(found);
        }
        return declared;
    }

    private static Object get(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
