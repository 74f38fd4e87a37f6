package dev.cabinet.projection.failure;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.TableConfig;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * Copies a record that cannot be applied to {@value Topics#DEAD_LETTERS}: same key, value and headers, plus headers that
 * say why and where it came from. Written before its key is parked, so a crash in between only writes it twice (the
 * {@code cabinet_dlq_*} position headers tell the copies apart).
 */
@ApplicationScoped
public class DeadLetterTopic {

    /** The outgoing channel; its producer settings live under {@code mp.messaging.outgoing.dead-letters}. */
    public static final String CHANNEL = "dead-letters";
    public static final String REASON = "cabinet_dlq_reason";
    public static final String TOPIC = "cabinet_dlq_topic";
    public static final String PARTITION = "cabinet_dlq_partition";
    public static final String OFFSET = "cabinet_dlq_offset";
    public static final String PARKED_KEY = "cabinet_dlq_parked_key";
    public static final String FAILED_AT = "cabinet_dlq_failed_at";
    /** On a copy too large to write whole: what was left out of it, and why. */
    public static final String LEFT_OUT = "cabinet_dlq_left_out";
    /** The longest reason a copy without its value keeps. */
    private static final int SHORT = 1_000;

    private static final Logger LOG = Logger.getLogger(DeadLetterTopic.class);

    private final MutinyEmitter<byte[]> emitter;
    private final TransientRetries retries;
    private final TableConfig tables;
    private final ActiveTable activeTable;

    DeadLetterTopic(@Channel(CHANNEL) MutinyEmitter<byte[]> emitter, TransientRetries retries, TableConfig tables,
            ActiveTable activeTable) {
        this.emitter = emitter;
        this.retries = retries;
        this.tables = tables;
        this.activeTable = activeTable;
    }

    /**
     * Completes once the broker has the copy; a broker that does not answer is retried, never given up on, but a copy
     * the producer refuses as such (too large) is written without its value and headers instead. A rebuild's
     * projector (its table does not answer reads yet) sends nothing: the live projector dead-lettered these already.
     */
    public Uni<Void> send(ConsumerRecord<String, byte[]> record, String reason) {
        return send(record, reason, LogKey.of(record));
    }

    /** As {@link #send(ConsumerRecord, String)}, for a record parked under the given key ({@link LogKey#misplaced}). */
    public Uni<Void> send(ConsumerRecord<String, byte[]> record, String reason, LogKey parkedAs) {
        if (!tables.target().equals(activeTable.name())) {
            LOG.infof("Rebuilding table '%s': no dead letter sent for %s-%d@%d (side effects are the live projector's)",
                    tables.target(), record.topic(), record.partition(), record.offset());
            return Uni.createFrom().voidItem();
        }
        return publish(record, reason, parkedAs);
    }

    /**
     * As {@link #send}, for a consumer group that every projector instance shares whatever table it builds (the object
     * deletions'): a record reaches one member of it only, a rebuild's projector or not, so no other instance
     * dead-letters it.
     */
    public Uni<Void> sendFromSharedGroup(ConsumerRecord<String, byte[]> record, String reason) {
        return publish(record, reason, LogKey.of(record));
    }

    private Uni<Void> publish(ConsumerRecord<String, byte[]> record, String reason, LogKey parkedAs) {
        return deliver(copy(record, reason, null, parkedAs), record)
                .onFailure(DeadLetterTopic::neverPasses).recoverWithUni(tooMuch -> {
                    // Retried, this copy would fail forever and hold its partition's batches with it.
                    LOG.errorf("The dead letter of %s-%d@%d cannot be written whole (%s): writing it without its value "
                            + "and headers", record.topic(), record.partition(), record.offset(), tooMuch.toString());
                    return deliver(copy(record, reason, tooMuch, parkedAs), record).onFailure(DeadLetterTopic::neverPasses)
                            .recoverWithItem(failure -> {
                                LOG.errorf("No dead letter of %s-%d@%d can be written (%s): the record stays in its "
                                        + "topic, and its key is parked", record.topic(), record.partition(),
                                        record.offset(), failure.toString());
                                return null;
                            });
                });
    }

    private Uni<Void> deliver(Message<byte[]> message, ConsumerRecord<String, byte[]> record) {
        return retries.retrying(Uni.createFrom().deferred(() -> emitter.sendMessage(message))
                .onFailure().invoke(e -> LOG.warnf("Retrying the dead letter of %s-%d@%d: %s", record.topic(),
                        record.partition(), record.offset(), e.toString())), e -> !neverPasses(e), Long.MAX_VALUE);
    }

    /**
     * The copy of the record: its key, value and headers with the ones that say why; or, where the whole copy never
     * passes ({@code leftOut}: too large for the producer), its key and those headers alone, saying what was left out.
     */
    static Message<byte[]> copy(ConsumerRecord<String, byte[]> record, String reason, Throwable leftOut,
            LogKey parkedAs) {
        RecordHeaders headers = leftOut == null ? new RecordHeaders(record.headers().toArray()) : new RecordHeaders();
        headers.add(header(REASON, leftOut == null ? reason : shortened(reason)));
        headers.add(header(TOPIC, record.topic()));
        headers.add(header(PARTITION, Integer.toString(record.partition())));
        headers.add(header(OFFSET, Long.toString(record.offset())));
        headers.add(header(PARKED_KEY, parkedAs.id()));
        headers.add(header(FAILED_AT, Timestamps.format(Instant.now())));
        if (leftOut != null) {
            headers.add(header(LEFT_OUT, "the value (" + (record.value() == null ? 0 : record.value().length)
                    + " bytes) and headers: " + shortened(leftOut.toString())));
        }
        OutgoingKafkaRecordMetadata.OutgoingKafkaRecordMetadataBuilder<String> metadata = OutgoingKafkaRecordMetadata
                .<String>builder().withTopic(Topics.DEAD_LETTERS).withHeaders(headers);
        if (record.key() != null) {
            metadata.withKey(record.key());
        }
        // A record without a value is copied with an empty one: the emitter takes no null payload.
        byte[] value = leftOut != null || record.value() == null ? new byte[0] : record.value();
        return Message.of(value).addMetadata(metadata.build());
    }

    /**
     * Whether the producer refuses this very record whatever the broker's state: too large, or not a valid record.
     * Anything else (a broker away, a full buffer, a missing permission an operator can grant) may pass later.
     */
    static boolean neverPasses(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof RetriableException) {
                return false;
            }
            if (e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                    || e instanceof InvalidRecordException || e instanceof SerializationException) {
                return true;
            }
        }
        return false;
    }

    private static String shortened(String text) {
        return text.length() <= SHORT ? text : text.substring(0, SHORT) + "…";
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
