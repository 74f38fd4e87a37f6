package dev.cabinet.projection.observability;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** The projection engine's counters and timers, as Micrometer meters. */
public final class ProjectionMetrics {

    private final MeterRegistry registry;
    private final Timer eventAge;
    private final Timer receivedAge;
    private final Timer startedAge;

    public ProjectionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.eventAge = Timer.builder("cabinet.projection.event.age")
                .description("how old an event was when it had been applied: from the record's timestamp (when the "
                        + "command's event was sent) until its projection's last write; the projector's part of "
                        + "freshness")
                .publishPercentileHistogram()
                // buckets at the freshness target (250 ms) and around it, for alerts and the benchmark
                .serviceLevelObjectives(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
                        Duration.ofMillis(500), Duration.ofSeconds(1))
                .register(registry);
        this.receivedAge = Timer.builder("cabinet.projection.event.received.age")
                .description("how old an event was when the engine received its batch (from the record's timestamp)")
                .publishPercentileHistogram().register(registry);
        this.startedAge = Timer.builder("cabinet.projection.event.started.age")
                .description("how old an event was when its application started (from the record's timestamp)")
                .publishPercentileHistogram().register(registry);
    }

    /**
     * Where an event's age goes before it is applied: from the record's timestamp until the engine received its batch
     * (producer linger, broker, fetch, the connector's queue), and until its application started (waiting for its
     * stream's earlier events and the engine's concurrency).
     */
    public void received(ConsumerRecords<String, byte[]> batch) {
        long now = System.currentTimeMillis();
        for (ConsumerRecord<String, byte[]> record : batch) {
            receivedAge.record(Math.max(0, now - record.timestamp()), TimeUnit.MILLISECONDS);
        }
    }

    public void started(long recordTimestampMillis) {
        startedAge.record(Math.max(0, System.currentTimeMillis() - recordTimestampMillis), TimeUnit.MILLISECONDS);
    }

    public void applied(String type, long nanos) {
        Timer.builder("cabinet.projection.applied").tag("type", type)
                // a few buckets: the tail of one event's application against freshness's budget
                .serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
                        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofSeconds(1))
                .register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * An event left to a newer owner of its partition: one of its counts met that owner's epoch (OwnerFence), or an
     * earlier event of the partition's ownership here did, or the ownership was stale from its start.
     */
    public void leftToNewerOwner(TopicPartition partition) {
        registry.counter("cabinet.projection.left_to_newer_owner", "topic", partition.topic(), "partition",
                Integer.toString(partition.partition())).increment();
    }

    public void appliedAged(long recordTimestampMillis) {
        eventAge.record(Math.max(0, System.currentTimeMillis() - recordTimestampMillis), TimeUnit.MILLISECONDS);
    }
}
