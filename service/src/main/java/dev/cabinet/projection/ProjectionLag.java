package dev.cabinet.projection;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;

/**
 * Where each partition's projection stands, as meters per partition: events applied
 * ({@code cabinet.projection.events}, a rate in Prometheus), the offset applied last, and the time lag (the age of the
 * oldest event of the batch being applied; 0 when caught up). The readiness check asks it whether a batch has been
 * stuck for too long. The offset lag ({@code cabinet.projection.offset.lag}) is what the consumer knows of each
 * partition's end after the last fetch, minus what was applied.
 */
@ApplicationScoped
public class ProjectionLag {

    /** A partition's batch in flight: when the engine started it, and its oldest event's log time. */
    record InFlight(Instant started, Instant oldestEvent) {
    }

    /** How often the offset lag per partition is asked of the consumers. */
    static final Duration OFFSET_LAG_REFRESH = Duration.ofSeconds(1);

    private final MeterRegistry registry;
    private final Clock clock;
    /** Per partition, its batches in flight, oldest first (batches finish in the order they started). */
    private final Map<TopicPartition, Deque<InFlight>> inFlight = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> applied = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Counter> events = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> offsetLag = new ConcurrentHashMap<>();
    private final KafkaClientService kafka;
    /** When the offset lag was asked for last ({@link System#nanoTime()}). */
    private final AtomicLong offsetLagRefreshed = new AtomicLong(System.nanoTime() - OFFSET_LAG_REFRESH.toNanos());
    /** Whether a refresh of the offset lag is waiting for its interval. */
    private final AtomicBoolean offsetLagQueued = new AtomicBoolean();

    ProjectionLag(MeterRegistry registry, KafkaClientService kafka) {
        this.registry = registry;
        this.kafka = kafka;
        this.clock = Clock.systemUTC();
    }

    void started(ConsumerRecords<String, byte[]> batch) {
        started(batch, clock.instant());
    }

    /** The batch began at {@code now}: its partitions are in flight from then. */
    void started(ConsumerRecords<String, byte[]> batch, Instant now) {
        for (TopicPartition partition : batch.partitions()) {
            long oldest = batch.records(partition).stream().mapToLong(ConsumerRecord::timestamp).min().orElse(0);
            InFlight batchInFlight = new InFlight(now, Instant.ofEpochMilli(oldest));
            inFlight.compute(partition, (p, batches) -> {
                Deque<InFlight> started = batches != null ? batches : new ArrayDeque<>();
                started.addLast(batchInFlight);
                return started;
            });
            register(partition);
        }
    }

    /** The last offset applied on each partition this instance has projected (graceful shutdown commits them). */
    Map<TopicPartition, Long> appliedOffsets() {
        return Map.copyOf(applied);
    }

    void finished(ConsumerRecords<String, byte[]> batch) {
        for (TopicPartition partition : batch.partitions()) {
            var records = batch.records(partition);
            applied.merge(partition, records.get(records.size() - 1).offset(), Math::max);
            events.get(partition).increment(records.size());
            inFlight.computeIfPresent(partition, (p, batches) -> {
                batches.pollFirst();
                return batches.isEmpty() ? null : batches;
            });
        }
        refreshOffsetLag();
    }

    /**
     * Asks each consumer, on its polling thread, how far the ends of its partitions are ahead of its positions: at most
     * once per {@link #OFFSET_LAG_REFRESH}, not after every batch (at a low rate every event is a batch of its own, and
     * each refresh is a task on every consumer's polling thread). A batch that finishes sooner queues one refresh for
     * when the interval is over, which covers every batch finished until then, so the last batch is always reflected.
     */
    private void refreshOffsetLag() {
        if (!offsetLagQueued.compareAndSet(false, true)) {
            return;
        }
        long wait = offsetLagRefreshed.get() + OFFSET_LAG_REFRESH.toNanos() - System.nanoTime();
        if (wait <= 0) {
            askOffsetLag();
        } else {
            CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS).execute(this::askOffsetLag);
        }
    }

    private void askOffsetLag() {
        offsetLagQueued.set(false);
        offsetLagRefreshed.set(System.nanoTime());
        for (KafkaConsumer<Object, Object> consumer : ProjectionEngine.consumers(kafka)) {
            consumer.runOnPollingThread(c -> {
                for (TopicPartition partition : c.assignment()) {
                    c.currentLag(partition).ifPresent(lag -> offsetLag.put(partition, lag));
                }
                return null;
            }).subscribe().with(done -> {
            }, failure -> {
            });
        }
    }

    /** The partition whose batch has been in flight the longest, if one has been for more than {@code limit}. */
    public Optional<String> stuckLongerThan(Duration limit) {
        Instant now = clock.instant();
        return oldestInFlight().entrySet().stream()
                .filter(e -> Duration.between(e.getValue().started(), now).compareTo(limit) > 0)
                .min(Map.Entry.comparingByValue((a, b) -> a.started().compareTo(b.started())))
                .map(e -> e.getKey() + " has not advanced for "
                        + Duration.between(e.getValue().started(), now).toSeconds() + " s (its oldest unprojected event is "
                        + Duration.between(e.getValue().oldestEvent(), now).toSeconds() + " s old)");
    }

    private void register(TopicPartition partition) {
        events.computeIfAbsent(partition, p -> {
            String topic = p.topic();
            String number = Integer.toString(p.partition());
            Gauge.builder("cabinet.projection.time.lag", () -> timeLagSeconds(p))
                    .tags("topic", topic, "partition", number).baseUnit("seconds")
                    .description("age of the oldest event of the batch being applied; 0 when caught up")
                    .register(registry);
            Gauge.builder("cabinet.projection.offset.lag", () -> offsetLag.getOrDefault(p, 0L))
                    .tags("topic", topic, "partition", number)
                    .description("events in the partition not applied yet, as of the consumer's last fetch")
                    .register(registry);
            Gauge.builder("cabinet.projection.applied.offset", () -> applied.getOrDefault(p, -1L))
                    .tags("topic", topic, "partition", number)
                    .description("the offset of the last event applied")
                    .register(registry);
            return Counter.builder("cabinet.projection.events").tags("topic", topic, "partition", number)
                    .description("events applied").register(registry);
        });
    }

    /** Each partition's oldest batch in flight. */
    private Map<TopicPartition, InFlight> oldestInFlight() {
        Map<TopicPartition, InFlight> oldest = new HashMap<>();
        inFlight.forEach((partition, batches) -> {
            InFlight first = oldestOf(partition);
            if (first != null) {
                oldest.put(partition, first);
            }
        });
        return oldest;
    }

    private InFlight oldestOf(TopicPartition partition) {
        InFlight[] first = new InFlight[1];
        inFlight.computeIfPresent(partition, (p, batches) -> {
            first[0] = batches.peekFirst();
            return batches;
        });
        return first[0];
    }

    private double timeLagSeconds(TopicPartition partition) {
        InFlight batch = oldestOf(partition);
        return batch == null ? 0 : Math.max(0, Duration.between(batch.oldestEvent(), clock.instant()).toMillis() / 1000.0);
    }
}
