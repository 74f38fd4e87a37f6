package dev.cabinet.projection.ordering;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import io.quarkus.arc.Unremovable;
import io.smallrye.reactive.messaging.ClientCustomizer;

/**
 * Static group membership for the projector's consumers: each copy of the events channel ({@code events$1},
 * {@code events$2}, ...) joins with a {@code group.instance.id} made of {@code cabinet.projection.instance-id} (the pod's
 * name) and the copy's name, so a projector killed and restarted under the same name takes its partitions back at once
 * instead of after the session timeout. Without an instance id the consumers are dynamic members (see docs/faults.md
 * for the trade-off).
 */
@ApplicationScoped
@Unremovable // looked up by the Kafka connector through Instance<ClientCustomizer<...>>
public class StaticMembership implements ClientCustomizer<Map<String, Object>> {

    private static final String INSTANCE_ID = "group.instance.id";

    private final Optional<String> instanceId;

    @Inject
    StaticMembership(ProjectionConfig config) {
        this(config.instanceId());
    }

    StaticMembership(Optional<String> instanceId) {
        this.instanceId = instanceId.map(String::trim).filter(id -> !id.isEmpty());
    }

    @Override
    public Map<String, Object> customize(String channel, Config channelConfig, Map<String, Object> config) {
        // Producers get the same call: only the events channel's consumers (they carry a group.id) join the group.
        boolean eventsConsumer = config.containsKey("group.id") && ProjectionEngine.isEventsChannel(channel);
        if (eventsConsumer && instanceId.isPresent() && !config.containsKey(INSTANCE_ID)) {
            config.put(INSTANCE_ID, memberId(instanceId.get(), channel));
        }
        return config;
    }

    /** The instance id of one consumer: Kafka allows only letters, digits, '.', '_' and '-' (the copies carry a '$'). */
    static String memberId(String instance, String channel) {
        return (instance + "-" + channel).replaceAll("[^A-Za-z0-9._-]", "-");
    }
}
