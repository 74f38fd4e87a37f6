package dev.cabinet.eventlog;

import java.util.Map;

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
        EventType<?> written = type;
        DomainEvent data = event;
        while (written.version() > wanted) {
            EventType<?> older = written.writablePredecessor().orElseThrow(() -> new IllegalStateException(
                    "cabinet.events.write-version.\"" + type.baseName() + "\"=" + wanted + ": " + type.name()
                            + " cannot be written as version " + wanted + " (no older version with a downcast)"));
            data = older.fromSuccessor(data).orElseThrow();
            written = older;
        }
        if (written.version() != wanted) {
            throw new IllegalStateException("cabinet.events.write-version.\"" + type.baseName() + "\"=" + wanted
                    + ": the current version is " + type.version());
        }
        return new WrittenVersion(written, data);
    }
}
