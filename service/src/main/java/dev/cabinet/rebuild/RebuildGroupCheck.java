package dev.cabinet.rebuild;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.cabinet.eventlog.EventLogConfig;
import dev.cabinet.eventlog.LogAdmin;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.role.RoleConfig;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableConfig;
import dev.cabinet.table.TableWriter;
import io.quarkus.runtime.StartupEvent;

/**
 * Refuses to start a rebuild's projector (one whose projection target is not the table answering reads) under a
 * consumer group that has committed offsets while its table holds no projection progress: a group of another table,
 * the live projector's (it would take partitions from it, and apply their events to the rebuild's table only) or a
 * retired one's (the rebuild would start mid-log, and only the verification would notice). A rebuild's projector
 * restarted mid-rebuild has both, and starts.
 */
@Singleton
class RebuildGroupCheck {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final RoleConfig role;
    private final TableConfig tables;
    private final ActiveTable activeTable;
    private final LogAdmin log;
    private final TableWriter target;
    private final EventLogConfig events;
    private final String group;

    RebuildGroupCheck(RoleConfig role, TableConfig tables, ActiveTable activeTable, LogAdmin log, TableWriter target,
            EventLogConfig events, @ConfigProperty(name = "mp.messaging.incoming.events.group.id") String group) {
        this.role = role;
        this.tables = tables;
        this.activeTable = activeTable;
        this.log = log;
        this.target = target;
        this.events = events;
        this.group = group;
    }

    // After TableBootstrap (10) made sure the tables exist, before the messaging connectors join the group.
    void onStart(@Observes @Priority(15) StartupEvent event) throws Exception {
        if (!role.role().projects()) {
            return;
        }
        String active = activeTable.lookUp().await().atMost(WAIT);
        if (tables.target().equals(active)) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = log.admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        boolean groupHasOffsets = committed.values().stream().anyMatch(Objects::nonNull);
        boolean tableHasProgress = groupHasOffsets && target.readAll(progressKeys()).await().atMost(WAIT).stream()
                .anyMatch(Optional::isPresent);
        refusal(tables.target(), group, groupHasOffsets, tableHasProgress).ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
    }

    /** Why a rebuild's projector may not start so, or empty (pure). */
    static Optional<String> refusal(String target, String group, boolean groupHasOffsets, boolean tableHasProgress) {
        if (!groupHasOffsets || tableHasProgress) {
            return Optional.empty();
        }
        return Optional.of("consumer group " + group + " has committed offsets, but table " + target + " holds no "
                + "projection progress: the group is another table's (the live projector's, or a retired one's), and a "
                + "rebuild must read the log from its beginning under a group of its own; set "
                + "mp.messaging.incoming.events.group.id to a name no projector used (docs/design.md, \"Rebuilding the "
                + "read model\")");
    }

    private List<Key> progressKeys() {
        List<Key> keys = new ArrayList<>();
        for (String topic : Topics.ALL) {
            for (int partition = 0; partition < events.partitions(); partition++) {
                keys.add(ProjectionProgress.key(topic, partition));
            }
        }
        return keys;
    }
}
