package dev.cabinet.role;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Turns {@code cabinet.role} into the settings it implies: an API-only instance has no projector channel, so it never
 * joins the consumer group, and a role creates only the producers it sends with. Its ordinal sits below
 * application.properties, so an explicit setting still wins. It runs before any config mapping exists, so it reads the
 * raw value: absent means {@link Role#BOTH}, {@link RoleConfig}'s default (ConfigurationDocumentTest keeps the two in
 * agreement).
 */
public class RoleConfigSourceFactory implements ConfigSourceFactory {

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        Role role = Role.parse(context.getValue(Role.PROPERTY).getValue());
        return List.of(new PropertiesConfigSource(
                Map.of("mp.messaging.incoming.events.enabled", Boolean.toString(role.projects()),
                        "mp.messaging.incoming.file-objects.enabled", Boolean.toString(role.projects()),
                        // An idempotent producer asks the broker for a producer id as soon as it starts, which a Kafka
                        // user that may write no topic (the operators', docs/deploy.md "Kafka") is refused again and
                        // again: a role that never sends on a channel creates its producer only if it ever does.
                        "mp.messaging.outgoing.events-out.lazy-client", Boolean.toString(!role.servesApi()),
                        // Reads need no broker: were an API instance's readiness to follow its producer's connection,
                        // a broker out of reach would take every API pod out of its Service, reads with them (a
                        // command answers 503 by itself). A projector's still does.
                        "mp.messaging.outgoing.events-out.health-readiness-enabled", Boolean.toString(role.projects()),
                        "mp.messaging.outgoing.dead-letters.lazy-client", Boolean.toString(!role.projects())),
                "cabinet-role", 200));
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(200);
    }
}
