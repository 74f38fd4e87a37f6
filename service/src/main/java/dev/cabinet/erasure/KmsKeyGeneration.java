package dev.cabinet.erasure;

import dev.cabinet.erasure.KeyWrapping.DataKey;
import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.kms.KmsAsyncClient;
import software.amazon.awssdk.services.kms.model.DataKeySpec;

/** Makes a person's data key with KMS GenerateDataKey: only the API does, when it first seals someone's data. */
@CallsAws(IamRole.API)
final class KmsKeyGeneration {

    private final KmsAsyncClient kms;
    private final String keyId;
    private final AwsCallLog calls;

    KmsKeyGeneration(KmsAsyncClient kms, String keyId, AwsCallLog calls) {
        this.kms = kms;
        this.keyId = keyId;
        this.calls = calls;
    }

    /**
     * KMS answers with the key's ARN whatever name it was asked by (an alias, an id): recorded with the data key, it
     * unwraps it later even after the configuration names the key otherwise or the alias is moved to a new key.
     */
    Uni<DataKey> generate() {
        return Uni.createFrom().completionStage(() -> {
            calls.record("kms:GenerateDataKey", IamRole.Resource.KEY);
            return kms.generateDataKey(b -> b.keyId(keyId).keySpec(DataKeySpec.AES_256));
        }).map(response -> new DataKey(response.plaintext().asByteArray(), response.ciphertextBlob().asByteArray(),
                response.keyId() != null ? response.keyId() : keyId));
    }
}
