package dev.cabinet.eventlog;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stable, versioned event type name (the CloudEvents {@code type}, e.g. {@code cabinet.user.registered.v1}), the record
 * that carries its data, and the topic its aggregate's events go to. Java class names never go on the wire. A type that
 * a newer version replaced is still read from the log (replay, rebuilds) and upcast on read into its successor
 * ({@link #superseded}); nothing appends it any more.
 */
public record EventType<E extends DomainEvent>(String name, Class<E> dataClass, String topic,
        EventType<?> successor, Function<E, ? extends DomainEvent> upcast,
        Function<? extends DomainEvent, E> downcast) {

    private static final Pattern VERSIONED = Pattern.compile("(.+)\\.v(\\d+)");
    /** The older version each type can still be written as, by the name of its successor. */
    private static final Map<String, EventType<?>> WRITABLE_PREDECESSORS = new ConcurrentHashMap<>();

    public static <E extends DomainEvent> EventType<E> of(String name, Class<E> dataClass, String topic) {
        return new EventType<>(name, dataClass, topic, null, null, null);
    }

    /** An older version of {@code successor}, read and validated against its own schema, then upcast into it. */
    public static <E extends DomainEvent, N extends DomainEvent> EventType<E> superseded(String name,
            Class<E> dataClass, EventType<N> successor, Function<E, N> upcast) {
        return new EventType<>(name, dataClass, successor.topic(), successor, upcast, null);
    }

    /**
     * An older version that a writer may still be told to write until every reader reads the newer one
     * ({@code cabinet.events.write-version}): {@code downcast} turns the successor's data into this version's.
     */
    public static <E extends DomainEvent, N extends DomainEvent> EventType<E> superseded(String name,
            Class<E> dataClass, EventType<N> successor, Function<E, N> upcast, Function<N, E> downcast) {
        EventType<E> older = new EventType<>(name, dataClass, successor.topic(), successor, upcast, downcast);
        WRITABLE_PREDECESSORS.put(successor.name(), older);
        return older;
    }

    /** The older version this one can still be written as, if one was declared with a downcast. */
    public Optional<EventType<?>> writablePredecessor() {
        return Optional.ofNullable(WRITABLE_PREDECESSORS.get(name));
    }

    /** The name without its version: {@code cabinet.customer.order-placed} for {@code ...order-placed.v2}. */
    public String baseName() {
        Matcher versioned = VERSIONED.matcher(name);
        return versioned.matches() ? versioned.group(1) : name;
    }

    /** The version the name ends in ({@code .v2}: 2). */
    public int version() {
        Matcher versioned = VERSIONED.matcher(name);
        return versioned.matches() ? Integer.parseInt(versioned.group(2)) : 1;
    }

    /** This version's data from its successor's, if this version can still be written. */
    @SuppressWarnings("unchecked")
    public Optional<E> fromSuccessor(DomainEvent newer) {
        return downcast == null ? Optional.empty()
                : Optional.of(((Function<DomainEvent, E>) (Function<?, ?>) downcast).apply(newer));
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
