package dev.cabinet.projection.ordering;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.launcher.StoreHooks;
import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.KeyPartitions;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import dev.cabinet.user.UserEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;

/**
 * A revoked partition goes to its next owner only once its batches in flight have finished, and what still arrives of
 * it is left to that owner: two instances applying the same events at once could count one of them twice. The records
 * are handed to the engine directly, on a topic the suite's consumers do not read (the dead letters), so that revoking
 * its partition here takes nothing from them.
 */
@QuarkusTest
class PartitionHandoverTest {

    private static final Duration HELD = Duration.ofMillis(1500);

    @Inject
    ProjectionEngine engine;

    @Inject
    @Identifier(PartitionHandover.NAME)
    PartitionHandover handover;

    @Inject
    KeyPartitions partitions;

    @Inject
    TableWriter store;

    @Test
    void aRevokedPartitionIsHandedOverOnceItsBatchInFlightFinishedAndWhatArrivesLaterIsLeftAlone() throws Exception {
        String user = "u" + Ids.newId();
        String later = "u" + Ids.newId();
        int count = partitions.count(Topics.DEAD_LETTERS).await().atMost(Duration.ofSeconds(30));
        TopicPartition partition = new TopicPartition(Topics.DEAD_LETTERS, KeyPartitions.of(user, count));
        TopicPartition laterPartition = new TopicPartition(Topics.DEAD_LETTERS, KeyPartitions.of(later, count));
        StoreHooks hooks = new StoreHooks(ConfigProvider.getConfig().getValue("quarkus.dynamodb.endpoint-override",
                String.class));
        hooks.holdWrites(List.of(KeyPlan.USER_PROFILE.partition(user) + " "), HELD);
        try {
            CompletableFuture<Void> inFlight = engine.project(batchOf(registered(user, partition, 1)))
                    .subscribeAsCompletionStage();

            handover.revoked(ProjectionEngine.DIRECT, List.of(partition, laterPartition));

            assertTrue(inFlight.isDone(), "the revocation returned before the batch in flight finished");
            assertTrue(profileExists(user));
            engine.project(batchOf(registered(later, laterPartition, 2))).await().atMost(Duration.ofSeconds(30));
            assertFalse(profileExists(later), "a record of a partition handed over was applied");
        } finally {
            hooks.noHeldWrites();
            handover.assigned(ProjectionEngine.DIRECT, List.of(partition, laterPartition), -1);
        }
        engine.project(batchOf(registered(later, laterPartition, 2))).await().atMost(Duration.ofSeconds(30));
        assertTrue(profileExists(later), "assigned again, the partition's records are applied");
    }

    private boolean profileExists(String user) {
        return store.read(KeyPlan.USER_PROFILE.key(user)).await().atMost(Duration.ofSeconds(10)).isPresent();
    }

    private static ConsumerRecord<String, byte[]> registered(String user, TopicPartition partition, long offset) {
        RecordHeaders headers = new RecordHeaders();
        Map.of(CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.SPEC_VERSION_1_0,
                CloudEventHeaders.ID, Ids.newId(),
                CloudEventHeaders.SOURCE, "/cabinet",
                CloudEventHeaders.TYPE, UserEvent.REGISTERED.name(),
                CloudEventHeaders.TIME, "2026-06-01T10:00:00.000Z",
                CloudEventHeaders.SUBJECT, user,
                CloudEventHeaders.ACTOR, user,
                CloudEventHeaders.CONTENT_TYPE, "application/json")
                .forEach((name, value) -> headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8))));
        byte[] value = ("{\"userId\":\"" + user + "\",\"name\":\"Handed\",\"email\":\"" + user
                + "@example.com\",\"avatarUrl\":null,\"registeredAt\":\"2026-06-01T10:00:01.000Z\"}")
                .getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, 0L, TimestampType.CREATE_TIME,
                value.length, value.length, user, value, headers, java.util.Optional.empty());
    }

    private static ConsumerRecords<String, byte[]> batchOf(ConsumerRecord<String, byte[]> record) {
        return new ConsumerRecords<>(Map.of(new TopicPartition(record.topic(), record.partition()), List.of(record)),
                Map.of());
    }
}
