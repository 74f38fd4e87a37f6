package dev.cabinet.eventlog;

import java.util.function.Function;

/**
 * A stable, versioned event type name (the CloudEvents {@code type}, e.g. {@code cabinet.user.registered.v1}), the record
 * that carries its data, and the topic its aggregate's events go to. Java class names never go on the wire. A type that
 * a newer version replaced is still read from the log (replay, rebuilds) and upcast on read into its successor
 * ({@link #superseded}); nothing appends it any more.
 */
public record EventType<E extends DomainEvent>(String name, Class<E> dataClass, String topic,
        EventType<?> successor, Function<E, ? extends DomainEvent> upcast) {

    public static <E extends DomainEvent> EventType<E> of(String name, Class<E> dataClass, String topic) {
        return new EventType<>(name, dataClass, topic, null, null);
    }

    /** An older version of {@code successor}, read and validated against its own schema, then upcast into it. */
    public static <E extends DomainEvent, N extends DomainEvent> EventType<E> superseded(String name,
            Class<E> dataClass, EventType<N> successor, Function<E, N> upcast) {
        return new EventType<>(name, dataClass, successor.topic(), successor, upcast);
    }

    /** Whether a newer version replaced this one: it is only read, never appended. */
    public boolean isSuperseded() {
        return successor != null;
    }

    /** The data as the current version of this type: itself, or upcast (through every later version) into it. */
    public DomainEvent current(DomainEvent data) {
        if (successor == null) {
            return data;
        }
        return successor.current(upcast.apply(dataClass.cast(data)));
    }

    /** The name of the current version of this type, the one its upcast data is. */
    public String currentName() {
        return successor == null ? name : successor.currentName();
    }
}
