package dev.cabinet.projection;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;

/**
 * Graceful shutdown of the projector: on shutdown the consumer is paused and the batches in flight are given
 * {@code cabinet.projection.drain-timeout} to finish, before the Kafka connector closes and commits what was processed.
 * A batch that does not finish in time is simply redelivered to the next owner of its partitions (every write is
 * idempotent), so shutdown is bounded and loses nothing either way.
 */
@ApplicationScoped
public class InFlightBatches {

    private static final Logger LOG = Logger.getLogger(InFlightBatches.class);

    private final AtomicInteger running = new AtomicInteger();
    private final KafkaClientService kafka;
    private final ProjectionConfig config;

    InFlightBatches(KafkaClientService kafka, ProjectionConfig config) {
        this.kafka = kafka;
        this.config = config;
    }

    <T> Uni<T> track(Uni<T> batch) {
        return Uni.createFrom().deferred(() -> {
            running.incrementAndGet();
            return batch.onTermination().invoke(running::decrementAndGet);
        });
    }

    /** Runs before the application's beans (the Kafka connector among them) are destroyed. */
    void drain(@Observes ShutdownEvent event) throws InterruptedException {
        KafkaConsumer<Object, Object> consumer = kafka.getConsumer(ProjectionEngine.CHANNEL);
        if (consumer == null) {
            return;
        }
        consumer.pause().subscribe().with(paused -> {
        }, failure -> LOG.debugf("could not pause the consumer: %s", failure));
        long started = System.nanoTime();
        Duration limit = config.drainTimeout();
        while (running.get() > 0 && System.nanoTime() - started < limit.toNanos()) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (running.get() > 0) {
            LOG.warnf("Shutdown: %d batch(es) still in flight after %d ms; they will be redelivered", running.get(),
                    millis);
        } else {
            LOG.infof("Shutdown: batches in flight finished in %d ms; the connector commits them on close", millis);
        }
    }
}
