package dev.cabinet.erasure;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kms.KmsAsyncClient;
import software.amazon.awssdk.services.kms.model.DataKeySpec;

/**
 * Wraps data keys with an AWS KMS key: GenerateDataKey gives a new key clear and wrapped, Decrypt unwraps one. The key
 * material never leaves KMS; an instance's role needs only these two operations on this one key.
 */
@CallsAws({ IamRole.API, IamRole.PROJECTOR, IamRole.OPERATOR })
final class KmsKeyWrapping implements KeyWrapping {

    private final KmsAsyncClient kms;
    private final String keyId;

    KmsKeyWrapping(KmsAsyncClient kms, String keyId) {
        this.kms = kms;
        this.keyId = keyId;
    }

    @Override
    public Uni<DataKey> generate() {
        return Uni.createFrom().completionStage(() -> kms.generateDataKey(b -> b.keyId(keyId)
                .keySpec(DataKeySpec.AES_256)))
                .map(response -> new DataKey(response.plaintext().asByteArray(),
                        response.ciphertextBlob().asByteArray()));
    }

    @Override
    public Uni<byte[]> unwrap(byte[] wrapped) {
        // Naming the key makes KMS refuse a blob wrapped under any other, instead of trusting the blob's own metadata.
        return Uni.createFrom().completionStage(() -> kms.decrypt(b -> b.keyId(keyId)
                .ciphertextBlob(SdkBytes.fromByteArray(wrapped))))
                .map(response -> response.plaintext().asByteArray());
    }

    @Override
    public String name() {
        return "kms:" + keyId;
    }
}
