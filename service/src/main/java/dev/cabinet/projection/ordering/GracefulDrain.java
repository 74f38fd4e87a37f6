package dev.cabinet.projection.ordering;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.cabinet.projection.observability.ProjectionLag;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;

/**
 * Graceful shutdown of the projector: the consumers are paused, the batches in flight ({@link BatchSequence}) get
 * {@code cabinet.projection.drain-timeout} to finish, and then the offsets of everything applied are committed
 * synchronously, before the Kafka connector closes. (The connector's own commit on close has a one-second budget that a
 * busy coordinator can miss; the crash test caught it.) A batch that does not finish in time is redelivered to the next
 * owner of its partitions, where every write is idempotent; it may still be applied here meanwhile, so this instance
 * releases no count token from then on ({@link ProjectionEngine#leaveUnfinished}). Shutdown is bounded and loses
 * nothing either way.
 */
@ApplicationScoped
public class GracefulDrain {

    private static final Logger LOG = Logger.getLogger(GracefulDrain.class);
    private static final Duration COMMIT_LIMIT = Duration.ofSeconds(5);

    private final ProjectionEngine engine;
    private final KafkaClientService kafka;
    private final ProjectionConfig config;
    private final ProjectionLag lag;

    GracefulDrain(ProjectionEngine engine, KafkaClientService kafka, ProjectionConfig config, ProjectionLag lag) {
        this.engine = engine;
        this.kafka = kafka;
        this.config = config;
        this.lag = lag;
    }

    /**
     * The longest a drain takes with {@code drainTimeout}: the pause, the batches, the commit. It runs on the shutdown
     * event, after Quarkus' own shutdown wait, so a projector pod's grace period outlasts it (DeploymentManifestsTest).
     */
    public static Duration longest(Duration drainTimeout) {
        return COMMIT_LIMIT.plus(drainTimeout).plus(COMMIT_LIMIT.multipliedBy(2));
    }

    /** Runs before the application's beans (the Kafka connector among them) are destroyed. */
    void drain(@Observes @Priority(1) ShutdownEvent event) {
        List<KafkaConsumer<Object, Object>> consumers = ProjectionEngine.consumers(kafka);
        if (consumers.isEmpty()) {
            LOG.debug("Shutdown: no projector consumer to drain");
            return;
        }
        LOG.infof("Shutdown: pausing %d consumer(s); %d event(s) in flight", consumers.size(), engine.eventsInFlight());
        // A revocation under way holds the polling thread, which pausing and committing need: it stops waiting.
        engine.stopping();
        try {
            // Each consumer's calls run on its own polling thread, behind the poll in progress (up to its 100 ms
            // timeout): made on all consumers at once, the drain waits for one poll where it waited for one each.
            Uni.join().all(consumers.stream().map(KafkaConsumer::pause).toList()).andFailFast()
                    .await().atMost(COMMIT_LIMIT);
            long started = System.nanoTime();
            Duration limit = config.drainTimeout();
            while (engine.eventsInFlight() > 0 && System.nanoTime() - started < limit.toNanos()) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            int unfinished = engine.eventsInFlight();
            if (unfinished > 0) {
                LOG.warnf("Shutdown: %d event(s) still in flight after %d ms; they will be redelivered", unfinished,
                        millis);
                engine.leaveUnfinished();
            }
            // Each consumer's commit (its assignments, its committed offsets, then the commit) gives up on its own
            // after COMMIT_LIMIT, and they run at once.
            Uni.join().all(consumers.stream().map(this::commitApplied).toList()).andFailFast()
                    .await().atMost(COMMIT_LIMIT.multipliedBy(2));
            if (unfinished == 0) {
                LOG.infof("Shutdown: batches in flight finished in %d ms and their offsets are committed", millis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warnf("Shutdown: interrupted while draining; what is not committed will be redelivered");
        } catch (RuntimeException e) {
            LOG.warnf(e, "Shutdown: could not drain the projector; what is not committed will be redelivered");
        } catch (Error e) {
            LOG.errorf(e, "Shutdown: draining the projector failed");
            throw e;
        }
    }

    /** Commits what was applied of the consumer's partitions; a failure is logged, and its records redelivered. */
    private Uni<Void> commitApplied(KafkaConsumer<Object, Object> consumer) {
        return consumer.getAssignments().chain(owned -> {
            Map<TopicPartition, OffsetAndMetadata> offsets = lag.appliedOffsets().entrySet().stream()
                    .filter(entry -> owned.contains(entry.getKey()))
                    .collect(Collectors.toMap(Map.Entry::getKey, entry -> new OffsetAndMetadata(entry.getValue() + 1)));
            if (offsets.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            // The offsets applied here are the highest this instance ever applied: a partition that another
            // instance owned meanwhile and that got no event since it came back would go backwards.
            return consumer.committed(offsets.keySet().toArray(TopicPartition[]::new)).chain(committed -> {
                offsets.entrySet().removeIf(entry -> committed.get(entry.getKey()) != null
                        && committed.get(entry.getKey()).offset() >= entry.getValue().offset());
                return offsets.isEmpty() ? Uni.createFrom().voidItem() : consumer.commit(offsets);
            });
        }).ifNoItem().after(COMMIT_LIMIT).fail().onFailure(Exception.class).recoverWithItem(e -> {
            LOG.warnf("Shutdown: could not commit the applied offsets (%s); the next owner re-applies them", e);
            return null;
        }).replaceWithVoid();
    }
}
