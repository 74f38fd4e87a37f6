package dev.cabinet.projection.contract;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import dev.cabinet.eventlog.EventLogConfig;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.WrittenVersion;
import dev.cabinet.projection.Projector;
import io.quarkus.runtime.StartupEvent;

/**
 * Refuses to start when {@code cabinet.events.write-version} names an event type that no projector declares, or a
 * version its type cannot be written as. The setting is a map whose keys hold dots and a dash: misspelled, or mangled
 * where it was set (an environment variable cannot spell it), it was ignored, and the API wrote the current version
 * while older projectors of a rolling upgrade could not read it; a version with no downcast to it answered every
 * command of the type 500.
 */
@Singleton
class WriteVersionCheck {

    void onStart(@Observes StartupEvent event, EventLogConfig config, Instance<Projector<?>> projectors) {
        List<String> unknown = unknownNames(config.writeVersion().keySet(), projectors.stream().toList());
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("cabinet.events.write-version names no event type: " + unknown
                    + "; a key is an event type's name without its version, in quotes, such as "
                    + "cabinet.events.write-version.\"cabinet.customer.order-placed\"=1 (docs/configuration.md)");
        }
        List<String> unwritable = unwritableVersions(config.writeVersion(), projectors.stream().toList());
        if (!unwritable.isEmpty()) {
            throw new IllegalStateException("cabinet.events.write-version asks for versions that cannot be written: "
                    + unwritable + " (docs/configuration.md)");
        }
    }

    /** Why each configured version of a declared type cannot be written, by name (pure). */
    static List<String> unwritableVersions(Map<String, Integer> configured,
            Collection<? extends Projector<?>> projectors) {
        Map<String, EventType<?>> current = new TreeMap<>();
        projectors.stream().flatMap(projector -> projector.eventTypes().stream())
                .filter(type -> !type.isSuperseded()).forEach(type -> current.put(type.baseName(), type));
        return configured.entrySet().stream().filter(entry -> current.containsKey(entry.getKey()))
                .flatMap(entry -> WrittenVersion.refusal(current.get(entry.getKey()), entry.getValue()).stream()
                        .map(reason -> "\"" + entry.getKey() + "\"=" + entry.getValue() + ": " + reason))
                .sorted().toList();
    }

    /** The configured names that are no declared event type's name without its version (pure). */
    static List<String> unknownNames(Set<String> configured, Collection<? extends Projector<?>> projectors) {
        Set<String> known = projectors.stream().flatMap(projector -> projector.eventTypes().stream())
                .map(EventType::baseName).collect(Collectors.toSet());
        return configured.stream().filter(name -> !known.contains(name)).sorted().toList();
    }
}
