package dev.cabinet.table;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The subjects' wrapped data keys ({@link KeyPlan#SUBJECT_KEY}), always in the home table: a rebuild's table is filled
 * from the log and must find the same keys, and the keys are not a projection of the log. Reads are consistent, so an
 * erasure is seen by the first read after it.
 */
@ApplicationScoped
@CallsAws({ IamRole.API, IamRole.PROJECTOR, IamRole.OPERATOR })
public class SubjectKeyStore {

    private final DynamoDbAsyncClient dynamo;
    private final ActiveTable tables;

    SubjectKeyStore(DynamoDbAsyncClient dynamo, ActiveTable tables) {
        this.dynamo = dynamo;
        this.tables = tables;
    }

    /** A subject's key item as stored: absent for one who never had personal data sealed. */
    public Uni<Optional<Map<String, AttributeValue>>> read(String subjectId) {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(tables.home())
                .key(KeyPlan.SUBJECT_KEY.key(subjectId).toAttributes()).consistentRead(true)))
                .map(Items::found);
    }

    /**
     * Stores a new wrapped key unless the subject has a key item already (another instance's, or an erasure's): empty
     * when it was stored, else the item found instead.
     */
    public Uni<Optional<Map<String, AttributeValue>>> create(String subjectId, byte[] wrappedKey, String wrapping,
            String wrappedUnder, String createdAt) {
        ItemUpdate update = ItemUpdate.of(KeyPlan.SUBJECT_KEY.key(subjectId), KeyPlan.SUBJECT_KEY)
                .set(Attributes.SUBJECT_ID, subjectId)
                .set(Attributes.WRAPPED_KEY, AttributeValue.fromB(SdkBytes.fromByteArray(wrappedKey)))
                .set(Attributes.WRAPPING, wrapping)
                .set(Attributes.WRAPPED_UNDER, wrappedUnder)
                .set(Attributes.CREATED_AT, createdAt)
                .onlyIfLacks(Key.PK);
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(update.toRequest(tables.home())))
                .map(response -> Optional.<Map<String, AttributeValue>>empty())
                .onFailure(ConditionalCheckFailedException.class).recoverWithUni(() -> read(subjectId)
                        .map(found -> Optional.of(found.orElseThrow(() -> new IllegalStateException(
                                "the key item of " + subjectId + " was refused as existing, then not found")))));
    }

    /**
     * Removes the subject's key for good and records when: later writes find {@code erasedAt} and are refused. Creates
     * that record for a subject who had no key yet; the first erasure's time stays.
     */
    public Uni<Void> destroy(String subjectId, String erasedAt) {
        ItemUpdate update = ItemUpdate.of(KeyPlan.SUBJECT_KEY.key(subjectId), KeyPlan.SUBJECT_KEY)
                .set(Attributes.SUBJECT_ID, subjectId)
                .setIfAbsent(Attributes.ERASED_AT, erasedAt)
                .set(Attributes.WRAPPED_KEY, null)
                .set(Attributes.WRAPPING, null)
                .set(Attributes.WRAPPED_UNDER, null);
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(update.toRequest(tables.home()))).replaceWithVoid();
    }
}
