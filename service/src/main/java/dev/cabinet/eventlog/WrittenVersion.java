package dev.cabinet.eventlog;

import java.util.Map;
import java.util.Optional;

/**
 * The type and data an event is written as: its current version, or the older one that
 * {@code cabinet.events.write-version} asks for while readers of the current one are not all deployed (pure).
 */
public record WrittenVersion(EventType<?> type, DomainEvent data) {

    /** {@code event} of the current {@code type}, as the settings say to write it. */
    public static WrittenVersion of(EventType<?> type, DomainEvent event, Map<String, Integer> writeVersions) {
        Integer wanted = writeVersions.get(type.baseName());
        if (wanted == null || wanted == type.version()) {
            return new WrittenVersion(type, event);
        }
        refusal(type, wanted).ifPresent(reason -> {
            throw new IllegalStateException("cabinet.events.write-version.\"" + type.baseName() + "\"=" + wanted + ": "
                    + reason);
        });
        EventType<?> written = type;
        DomainEvent data = event;
        while (written.version() > wanted) {
            EventType<?> older = written.writablePredecessor().orElseThrow();
            data = older.fromSuccessor(data).orElseThrow();
            written = older;
        }
        return new WrittenVersion(written, data);
    }

    /** Why the current {@code type} cannot be written as version {@code wanted}, or empty when it can (pure). */
    public static Optional<String> refusal(EventType<?> type, int wanted) {
        EventType<?> written = type;
        while (written.version() > wanted) {
            Optional<EventType<?>> older = written.writablePredecessor();
            if (older.isEmpty()) {
                return Optional.of(type.name() + " cannot be written as version " + wanted
                        + " (no older version with a downcast)");
            }
            written = older.get();
        }
        return written.version() == wanted ? Optional.empty()
                : Optional.of(type.name() + " has no version " + wanted + ": the current version is " + type.version());
    }
}
