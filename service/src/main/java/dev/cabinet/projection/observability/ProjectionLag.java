package dev.cabinet.projection.observability;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import dev.cabinet.projection.ordering.ProjectionEngine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;

/**
 * Where each partition's projection stands, as meters per partition: events applied
 * ({@code cabinet.projection.events}, a rate in Prometheus), the offset applied last, and the time lag (the age of the
 * oldest event not applied yet; 0 when caught up, see {@link #oldestUnappliedAge}). The readiness check asks it whether
 * a batch has been stuck for too long, and reports every partition's lag. The offset lag
 * ({@code cabinet.projection.offset.lag}) is what the consumer knows of each partition's end after the last fetch,
 * minus what was applied.
 */
@ApplicationScoped
public class ProjectionLag {

    /** How often the offset lag per partition is asked of the consumers. */
    static final Duration OFFSET_LAG_REFRESH = Duration.ofSeconds(1);
    /**
     * An offset lag not asked for this long is not believed: the partition may have moved to another instance, whose
     * consumer now answers for it, or it has had no batch since (then it had none waiting either).
     */
    static final Duration OFFSET_LAG_STALE = OFFSET_LAG_REFRESH.multipliedBy(5);

    /** One partition as this instance projects it: the last offset applied, events and seconds behind. */
    public record PartitionLag(String topic, int partition, long appliedOffset, long offsetLag,
            double timeLagSeconds) {

        /** {@code topic-partition}, as Kafka names a partition. */
        public String name() {
            return topic + "-" + partition;
        }
    }

    private final MeterRegistry registry;
    private final Clock clock;
    /**
     * The batches in flight, which the engine keeps ({@code BatchSequence}) and hands here once it exists (none before,
     * and none in the API role, which runs no engine): nothing here tracks them again.
     */
    private volatile BatchesInFlight inFlight = Map::of;
    private final Map<TopicPartition, Long> applied = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Counter> events = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> offsetLag = new ConcurrentHashMap<>();
    /** When each partition's offset lag was last answered ({@link System#nanoTime()}). */
    private final Map<TopicPartition, Long> offsetLagAt = new ConcurrentHashMap<>();
    /** The log time of the last event applied on each partition (epoch milliseconds). */
    private final Map<TopicPartition, Long> appliedTime = new ConcurrentHashMap<>();
    private final KafkaClientService kafka;
    /** When the offset lag was asked for last ({@link System#nanoTime()}). */
    private final AtomicLong offsetLagRefreshed = new AtomicLong(System.nanoTime() - OFFSET_LAG_REFRESH.toNanos());
    /** Whether a refresh of the offset lag is waiting for its interval. */
    private final AtomicBoolean offsetLagQueued = new AtomicBoolean();

    @Inject
    ProjectionLag(MeterRegistry registry, KafkaClientService kafka) {
        this(registry, kafka, Clock.systemUTC());
    }

    /** With the time from {@code clock}; {@code kafka} may be null where no batch finishes (no offset lag asked). */
    ProjectionLag(MeterRegistry registry, KafkaClientService kafka, Clock clock) {
        this.registry = registry;
        this.kafka = kafka;
        this.clock = clock;
    }

    /** The engine's batches in flight, which the lag and the stuck check read from now on. */
    public void trackedBy(BatchesInFlight batches) {
        this.inFlight = batches;
    }

    /** The batch began: its partitions' meters exist from now on (how long it has been in flight, the engine knows). */
    public void started(ConsumerRecords<String, byte[]> batch) {
        batch.partitions().forEach(this::register);
    }

    /** The last offset applied on each partition this instance has projected (graceful shutdown commits them). */
    public Map<TopicPartition, Long> appliedOffsets() {
        return Map.copyOf(applied);
    }

    /**
     * The batch finished: its partitions are applied up to its last records, but for those it left to a newer owner
     * (a stale or fenced batch applied nothing there), whose offsets a graceful drain must not commit.
     */
    public void finished(ConsumerRecords<String, byte[]> batch, Set<TopicPartition> leftAlone) {
        for (TopicPartition partition : batch.partitions()) {
            if (leftAlone.contains(partition)) {
                // Applied by its newer owner, not here: what a drain commits must not move past it on its account.
                continue;
            }
            var records = batch.records(partition);
            applied.merge(partition, records.get(records.size() - 1).offset(), Math::max);
            appliedTime.merge(partition, records.get(records.size() - 1).timestamp(), Math::max);
            events.get(partition).increment(records.size());
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
                    c.currentLag(partition).ifPresent(lag -> offsetLag(partition, lag, System.nanoTime()));
                }
                return null;
            }).subscribe().with(done -> {
            }, failure -> {
            });
        }
    }

    /** What the consumer answered for the partition's offset lag, at {@code answeredAt} ({@link System#nanoTime()}). */
    void offsetLag(TopicPartition partition, long lag, long answeredAt) {
        offsetLag.put(partition, lag);
        offsetLagAt.put(partition, answeredAt);
    }

    /** Every partition this instance has projected, by topic and partition. */
    public List<PartitionLag> partitions() {
        return events.keySet().stream()
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .map(p -> new PartitionLag(p.topic(), p.partition(), applied.getOrDefault(p, -1L),
                        offsetLag.getOrDefault(p, 0L), timeLagSeconds(p)))
                .toList();
    }

    /** The partition whose batch has been in flight the longest, if one has been for more than {@code limit}. */
    public Optional<String> stuckLongerThan(Duration limit) {
        Instant now = clock.instant();
        return inFlight.oldestByPartition().entrySet().stream()
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
                    .description("age of the oldest event not applied yet (of the batch being applied, or at most "
                            + "the age of the last one applied while events wait in the log); 0 when caught up")
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

    private double timeLagSeconds(TopicPartition partition) {
        Long answeredAt = offsetLagAt.get(partition);
        boolean fresh = answeredAt != null && System.nanoTime() - answeredAt < OFFSET_LAG_STALE.toNanos();
        Long lastApplied = appliedTime.get(partition);
        return oldestUnappliedAge(inFlight.oldestByPartition().get(partition),
                fresh ? offsetLag.getOrDefault(partition, 0L) : 0,
                lastApplied == null ? null : Instant.ofEpochMilli(lastApplied), clock.instant());
    }

    /**
     * The age in seconds of the partition's oldest event not applied yet (pure): the oldest event of its oldest batch
     * in flight; with no batch in flight but {@code eventsBehind} events waiting in the log (fetched and queued behind
     * the events-in-flight bound, or not fetched yet), the next event is no older than the last one applied, whose age
     * is then the answer (at most that old: the time lag never reads 0 while events wait); 0 when caught up.
     */
    static double oldestUnappliedAge(BatchesInFlight.Batch oldestBatch, long eventsBehind, Instant lastApplied,
            Instant now) {
        Instant oldest = oldestBatch != null ? oldestBatch.oldestEvent()
                : eventsBehind > 0 && lastApplied != null ? lastApplied : null;
        return oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toMillis() / 1000.0);
    }
}
