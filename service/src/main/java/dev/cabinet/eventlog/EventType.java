package dev.cabinet.eventlog;

/**
 * A stable, versioned event type name (the CloudEvents {@code type}, e.g. {@code cabinet.user.registered.v1}), the record
 * that carries its data, and the topic its aggregate's events go to. Java class names never go on the wire.
 */
public record EventType<E extends DomainEvent>(String name, Class<E> dataClass, String topic) {

    public static <E extends DomainEvent> EventType<E> of(String name, Class<E> dataClass, String topic) {
        return new EventType<>(name, dataClass, topic);
    }
}
