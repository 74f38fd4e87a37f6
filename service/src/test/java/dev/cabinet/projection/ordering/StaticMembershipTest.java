package dev.cabinet.projection.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Which Kafka clients become static group members, and under which ids. */
class StaticMembershipTest {

    @Test
    void eachCopyOfTheEventsChannelJoinsUnderThePodsNameAndItsCopyNumber() {
        StaticMembership membership = membership("cabinet-projector-7d9f-x2k4q");
        assertEquals("cabinet-projector-7d9f-x2k4q-events-1",
                membership.customize("events$1", null, consumer()).get("group.instance.id"));
        assertEquals("cabinet-projector-7d9f-x2k4q-events-3",
                membership.customize("events$3", null, consumer()).get("group.instance.id"));
    }

    @Test
    void producersOtherConsumerGroupsAndInstancesWithoutANameStayAsTheyAre() {
        StaticMembership membership = membership("pod-1");
        assertFalse(membership.customize("events-out", null, new HashMap<>(Map.of("acks", "all")))
                .containsKey("group.instance.id"));
        assertFalse(membership.customize("file-objects", null, consumer()).containsKey("group.instance.id"));
        assertFalse(membership("").customize("events$1", null, consumer()).containsKey("group.instance.id"));
    }

    private static Map<String, Object> consumer() {
        return new HashMap<>(Map.of("group.id", "cabinet-projector"));
    }

    private static StaticMembership membership(String instanceId) {
        return new StaticMembership(Optional.of(instanceId));
    }
}
