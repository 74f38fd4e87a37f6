package dev.cabinet.folder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.folder.ObjectDeletionDecisions.Delete;
import dev.cabinet.folder.ObjectDeletionDecisions.Effect;
import dev.cabinet.folder.ObjectDeletionDecisions.Impossible;
import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.projection.contract.EventReader;
import dev.cabinet.projection.failure.DeadLetterTopic;
import dev.cabinet.projection.ordering.LogKey;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Deletes a deleted file's object: a side effect of {@code cabinet.file.deleted.v1}, in the projector role, with its
 * own consumer group on {@code cabinet.files} ({@value #CHANNEL}) so that object storage never slows or blocks the
 * table's projection, and the table's executor knows nothing of S3. A batch's keys run concurrently, each key's events
 * in order; a transient error (no answer, 5xx, throttling) is retried with backoff for at most
 * {@link FilesConfig#deleteRetryFor()}, any other failure (or that time running out) dead-letters the record with its
 * reason, so one object that cannot be deleted holds the others up for a bounded time only. The batch's offsets are
 * committed once every record of it is done or dead-lettered: a crash before that deletes again, which is harmless.
 */
@ApplicationScoped
@CallsAws(IamRole.PROJECTOR)
public class ObjectDeletions {

    /** The incoming channel; its consumer settings live under {@code mp.messaging.incoming.file-objects}. */
    public static final String CHANNEL = "file-objects";

    private static final Logger LOG = Logger.getLogger(ObjectDeletions.class);

    private final S3AsyncClient s3;
    private final DeadLetterTopic deadLetters;
    private final FilesConfig files;
    private final ProjectionConfig projection;
    private final AwsCallLog callLog;
    private final EventReader reader;
    private final MeterRegistry meters;

    ObjectDeletions(S3AsyncClient s3, DeadLetterTopic deadLetters, FilesConfig files, ProjectionConfig projection,
            AwsCallLog callLog, ObjectMapper json, MeterRegistry meters) {
        this.s3 = s3;
        this.deadLetters = deadLetters;
        this.files = files;
        this.projection = projection;
        this.callLog = callLog;
        this.reader = new EventReader(List.of(FileEvent.DELETED), json);
        this.meters = meters;
    }

    @Incoming(CHANNEL)
    public Uni<Void> onBatch(ConsumerRecords<String, byte[]> batch) {
        Map<LogKey, List<ConsumerRecord<String, byte[]>>> byKey = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : batch) {
            byKey.computeIfAbsent(LogKey.of(record), k -> new ArrayList<>()).add(record);
        }
        return Multi.createFrom().iterable(byKey.values())
                .onItem().transformToUni(records -> Multi.createFrom().iterable(records)
                        .onItem().transformToUniAndConcatenate(this::apply)
                        .collect().last())
                .merge(projection.concurrency())
                .collect().last()
                .replaceWithVoid();
    }

    private Uni<Void> apply(ConsumerRecord<String, byte[]> record) {
        Effect effect = reader.read(record)
                .map(event -> ObjectDeletionDecisions.decide((FileEvent) event, files.bucket()))
                .orElse(new ObjectDeletionDecisions.Nothing());
        if (effect instanceof Impossible impossible) {
            return deadLetter(record, impossible.reason());
        }
        if (!(effect instanceof Delete delete)) {
            return Uni.createFrom().voidItem();
        }
        ObjectAddress address = delete.address();
        return Uni.createFrom().deferred(() -> {
                    callLog.record("s3:DeleteObject", IamRole.Resource.OBJECT);
                    return Uni.createFrom().completionStage(
                            () -> s3.deleteObject(request -> request.bucket(address.bucket()).key(address.key())));
                })
                .onFailure(ObjectDeletions::isTransient).invoke(e -> {
                    count("retried");
                    LOG.warnf("Retrying the deletion of %s: %s", address, e.toString());
                })
                .onFailure(ObjectDeletions::isTransient).retry()
                .withBackOff(projection.initialBackoff(), projection.maxBackoff()).withJitter(0.5)
                .expireIn(files.deleteRetryFor().toMillis())
                .invoke(() -> count("deleted"))
                .replaceWithVoid()
                .onFailure().recoverWithUni(e -> deadLetter(record, "object " + address + " could not be deleted: "
                        + rootCause(e)));
    }

    private Uni<Void> deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        LOG.errorf("Dead-lettering %s-%d@%d: %s", record.topic(), record.partition(), record.offset(), reason);
        // Its group is shared by every projector, a rebuild's too: no other instance got this record.
        return deadLetters.sendFromSharedGroup(record, reason).invoke(() -> count("dead_lettered"));
    }

    private void count(String outcome) {
        meters.counter("cabinet_file_object_deletions", "outcome", outcome).increment();
    }

    /** No answer, a server error or throttling: worth another try. Refusals (403, 400, ...) are not. */
    static boolean isTransient(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof S3Exception s3) {
            return s3.statusCode() >= 500 || s3.statusCode() == 429 || s3.isThrottlingException();
        }
        return cause instanceof SdkClientException || cause instanceof java.io.IOException;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The last failure; for a transient one, after how long the retries gave up. */
    private String rootCause(Throwable failure) {
        return (isTransient(failure) ? "still failing after retrying for " + files.deleteRetryFor() + ": " : "")
                + unwrap(failure);
    }
}
