package dev.cabinet.projection.ordering;

import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.KeyPartitions;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.PostEvent;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;
import dev.cabinet.user.UserEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Once one of its counts meets a newer owner, an ownership applies nothing more of its partition: a later event of the
 * same stream recorded here would move the stream's version past the one given up, and its newer owner would then skip
 * it, count and all. Nor does it record the partition's progress: read-your-writes would say the event given up was
 * applied. The records are handed to the engine directly, under an assignment of this test's own generation, on a
 * topic the suite's consumers do not read (the dead letters).
 */
@QuarkusTest
class FencedOwnershipTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    ProjectionEngine engine;

    @Inject
    @Identifier(PartitionHandover.NAME)
    PartitionHandover handover;

    @Inject
    KeyPartitions partitions;

    @Inject
    TableWriter store;

    @Inject
    MeterRegistry registry;

    @Inject
    OwnerEpochs epochs;

    @Test
    void anOwnershipWhoseCountMetANewerOwnerLeavesTheRestOfItsPartitionAlone() {
        String author = newUserId();
        register(author, "Fenced");
        int count = partitions.count(Topics.DEAD_LETTERS).await().atMost(WAIT);
        String postId = Ids.newId();
        TopicPartition partition = new TopicPartition(Topics.DEAD_LETTERS, KeyPartitions.of(postId, count));
        String later = newUserId();
        while (KeyPartitions.of(later, count) != partition.partition()) {
            later = newUserId();
        }
        // A newer owner of the partition has counted on the author's profile.
        store.update(ItemUpdate.of(KeyPlan.USER_PROFILE.key(author))
                .set(new OwnerFence(partition.topic(), partition.partition(), 1).attribute(), Long.MAX_VALUE / 2))
                .await().atMost(WAIT);
        double leftBefore = leftToNewerOwner(partition);

        handover.assigned(ProjectionEngine.DIRECT, List.of(partition), 1);
        try {
            // The post's creation is fenced; its edit, the same stream's next event, must not be recorded after it.
            engine.project(new ConsumerRecords<>(Map.of(partition, List.of(
                    record(partition, 1, postId, PostEvent.CREATED.name(), author, "{\"postId\":\"" + postId
                            + "\",\"authorId\":\"" + author + "\",\"title\":\"Fenced\",\"body\":\"Body\","
                            + "\"createdAt\":\"2026-06-01T10:00:01.000Z\"}"),
                    record(partition, 2, postId, PostEvent.EDITED.name(), author, "{\"postId\":\"" + postId
                            + "\",\"title\":\"Edited\",\"body\":null}"))), Map.of()))
                    .await().atMost(WAIT);
            // Nor anything of the partition under that ownership afterwards.
            engine.project(new ConsumerRecords<>(Map.of(partition, List.of(
                    record(partition, 3, later, UserEvent.REGISTERED.name(), later, "{\"userId\":\"" + later
                            + "\",\"name\":\"Later\",\"email\":\"" + later + "@example.com\",\"avatarUrl\":null,"
                            + "\"registeredAt\":\"2026-06-01T10:00:02.000Z\"}"))), Map.of()))
                    .await().atMost(WAIT);
        } finally {
            handover.assigned(ProjectionEngine.DIRECT, List.of(partition), -1);   // no epoch: as the other tests expect
        }

        assertEquals(0, Items.number(store.read(KeyPlan.USER_PROFILE.key(author)).await().atMost(WAIT).orElseThrow(),
                Attributes.POST_COUNT), "the fenced count was not made");
        Map<String, AttributeValue> post = store.read(KeyPlan.POST.key(postId)).await().atMost(WAIT).orElseThrow();
        assertEquals("Fenced", post.get(Attributes.TITLE).s(), "the stream's next event was left to the newer owner");
        assertEquals(Optional.of(1L), Optional.ofNullable(post.get(KeyPlan.POST_STREAM.versionAttribute()))
                .map(version -> Long.parseLong(version.n())), "the stream stays at the event given up, for its redo");
        assertTrue(store.read(KeyPlan.USER_PROFILE.key(later)).await().atMost(WAIT).isEmpty(),
                "the partition's later records were left to the newer owner");
        assertFalse(store.read(ProjectionProgress.key(partition.topic(), partition.partition())).await().atMost(WAIT)
                .orElseThrow().containsKey(Attributes.APPLIED_OFFSET), "no progress recorded past the event given up");
        assertEquals(3, leftToNewerOwner(partition) - leftBefore);
    }

    /**
     * A batch polled before the partition's latest assignment here (it waited in the connector through a rebalance that
     * gave the partition back) runs under no epoch of its own: the records are fetched again from the committed offset
     * under the new one, and the old batch is left alone.
     */
    @Test
    void aBatchPolledBeforeThePartitionsLatestAssignmentHereIsStale() {
        TopicPartition partition = new TopicPartition(Topics.DEAD_LETTERS, 2000 + (int) (System.nanoTime() % 100_000));
        handover.assigned(ProjectionEngine.DIRECT, List.of(partition), 5);
        try {
            long epoch = epochs.of(List.of(partition), 5).toCompletableFuture().join().get(partition);
            assertTrue(epoch > 0);
            assertEquals(ProjectionProgress.STALE, epochs.of(List.of(partition), 4).toCompletableFuture().join()
                    .get(partition));
            assertEquals(epoch, epochs.of(List.of(partition), -1).toCompletableFuture().join().get(partition),
                    "a batch whose generation is not known takes the partition's epoch");
        } finally {
            handover.assigned(ProjectionEngine.DIRECT, List.of(partition), -1);
        }
    }

    private double leftToNewerOwner(TopicPartition partition) {
        return registry.counter("cabinet.projection.left_to_newer_owner", "topic", partition.topic(), "partition",
                Integer.toString(partition.partition())).count();
    }

    private static ConsumerRecord<String, byte[]> record(TopicPartition partition, long offset, String key,
            String type, String actor, String json) {
        RecordHeaders headers = new RecordHeaders();
        Map.of(CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.SPEC_VERSION_1_0,
                CloudEventHeaders.ID, Ids.newId(),
                CloudEventHeaders.SOURCE, "/cabinet",
                CloudEventHeaders.TYPE, type,
                CloudEventHeaders.TIME, "2026-06-01T10:00:00.000Z",
                CloudEventHeaders.SUBJECT, key,
                CloudEventHeaders.ACTOR, actor,
                CloudEventHeaders.CONTENT_TYPE, "application/json")
                .forEach((name, value) -> headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8))));
        byte[] value = json.getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, 0L, TimestampType.CREATE_TIME,
                value.length, value.length, key, value, headers, java.util.Optional.empty());
    }
}
