package dev.cabinet.projection.contract;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import dev.cabinet.eventlog.EventLogConfig;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Projector;
import io.quarkus.runtime.StartupEvent;

/**
 * Refuses to start when {@code cabinet.events.write-version} names an event type that no projector declares. The
 * setting is a map whose keys hold dots and a dash: misspelled, or mangled where it was set (an environment variable
 * cannot spell it), it was ignored, and the API wrote the current version while older projectors of a rolling upgrade
 * could not read it.
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
    }

    /** The configured names that are no declared event type's name without its version (pure). */
    static List<String> unknownNames(Set<String> configured, Collection<? extends Projector<?>> projectors) {
        Set<String> known = projectors.stream().flatMap(projector -> projector.eventTypes().stream())
                .map(EventType::baseName).collect(Collectors.toSet());
        return configured.stream().filter(name -> !known.contains(name)).sorted().toList();
    }
}
