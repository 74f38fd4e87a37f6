package dev.cabinet.projection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import io.smallrye.mutiny.Multi;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import dev.cabinet.table.TransientStoreErrors;
import io.smallrye.mutiny.Uni;

/**
 * Consumes the event topics in batches and applies each event through {@link EventApplier}. Events of one stream (topic
 * and key) are applied one after the other, in log order; different streams run concurrently. An event that cannot
 * apply goes to the dead-letter topic and parks its stream: the stream's later events wait behind it, while other
 * streams and the partition's offset move on. The batch is acknowledged, and so its offsets committed, only once every
 * event of it is applied or parked. Transient store errors are retried without end: nothing is skipped for them.
 */
@ApplicationScoped
public class ProjectionEngine {

    /** The incoming channel; its consumer settings live under {@code mp.messaging.incoming.events}. */
    public static final String CHANNEL = "events";

    private final EventApplier applier;
    private final ParkedKeys parkedKeys;
    private final DeadLetterTopic deadLetters;
    private final ProjectionProgress progress;
    private final ProjectionLag lag;
    private final ProjectionConfig config;
    private final InFlightBatches inFlight;

    ProjectionEngine(EventApplier applier, ParkedKeys parkedKeys, DeadLetterTopic deadLetters,
            ProjectionProgress progress, ProjectionLag lag, ProjectionConfig config, InFlightBatches inFlight) {
        this.applier = applier;
        this.parkedKeys = parkedKeys;
        this.deadLetters = deadLetters;
        this.progress = progress;
        this.lag = lag;
        this.config = config;
        this.inFlight = inFlight;
    }

    /**
     * The projector's Kafka consumers, one per copy of the channel ({@code mp.messaging.incoming.events.concurrency}:
     * copies named {@code events$1}, {@code events$2}, ... each poll their own partitions and apply their own batches).
     */
    public static List<KafkaConsumer<Object, Object>> consumers(KafkaClientService kafka) {
        return kafka.getConsumerChannels().stream()
                .filter(channel -> channel.equals(CHANNEL) || channel.startsWith(CHANNEL + "$"))
                .flatMap(channel -> kafka.<Object, Object>getConsumers(channel).stream())
                .distinct()
                .toList();
    }

    /** Applies the batch, then records how far each of its partitions is applied (read-your-writes reads that). */
    @Incoming(CHANNEL)
    public Uni<Void> project(ConsumerRecords<String, byte[]> batch) {
        lag.started(batch);
        return inFlight.track(applier.retryingTransientErrors(parkedKeys.parkedIds())
                .chain(parked -> Multi.createFrom().iterable(byStream(batch))
                        .onItem().transformToUni(records -> applyInOrder(records, parked))
                        .merge(config.concurrency())
                        .collect().last())
                .chain(() -> applier.retryingTransientErrors(progress.record(batch)))
                .invoke(() -> lag.finished(batch))
                .replaceWithVoid());
    }

    /** Groups the batch by stream, keeping each group in log order. */
    private static Iterable<List<ConsumerRecord<String, byte[]>>> byStream(ConsumerRecords<String, byte[]> batch) {
        Map<StreamId, List<ConsumerRecord<String, byte[]>>> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : batch) {
            groups.computeIfAbsent(StreamId.of(record), g -> new ArrayList<>()).add(record);
        }
        return groups.values();
    }

    private Uni<Void> applyInOrder(List<ConsumerRecord<String, byte[]>> records, Set<String> parkedAtStart) {
        StreamState stream = new StreamState(parkedAtStart.contains(StreamId.of(records.get(0)).id()));
        return Multi.createFrom().iterable(records)
                .onItem().transformToUniAndConcatenate(record -> applyOrPark(record, stream))
                .collect().last()
                .replaceWithVoid();
    }

    private Uni<Void> applyOrPark(ConsumerRecord<String, byte[]> record, StreamState stream) {
        if (stream.parked) {
            return applier.retryingTransientErrors(parkedKeys.parkBehind(record)).chain(parked -> {
                stream.parked = parked;
                return parked ? Uni.createFrom().voidItem() : applyOrPark(record, stream);
            });
        }
        return applier.apply(record)
                .onFailure(UnappliableEventException.class).recoverWithUni(e -> {
                    stream.parked = true;
                    String reason = ((UnappliableEventException) e).reason();
                    return deadLetters.send(record, reason)
                            .chain(() -> applier.retryingTransientErrors(parkedKeys.park(record, reason)));
                });
    }

    /** Whether a stream is parked, as the engine walks its events of one batch. */
    private static final class StreamState {
        boolean parked;

        StreamState(boolean parked) {
            this.parked = parked;
        }
    }
}
