package dev.cabinet.erasure;

import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kms.KmsAsyncClient;

/**
 * Wraps data keys with an AWS KMS key: GenerateDataKey gives a new key clear and wrapped ({@link KmsKeyGeneration}),
 * Decrypt unwraps one. The KMS key's material never leaves KMS; an instance's role needs only these two operations on
 * this one key (see {@link IamRole#keyActions()}).
 */
@CallsAws({ IamRole.API, IamRole.PROJECTOR, IamRole.OPERATOR })
final class KmsKeyWrapping implements KeyWrapping {

    static final String PREFIX = "kms:";

    private final KmsAsyncClient kms;
    private final String keyId;
    private final AwsCallLog calls;
    private final KmsKeyGeneration generation;

    KmsKeyWrapping(KmsAsyncClient kms, String keyId, AwsCallLog calls) {
        this.kms = kms;
        this.keyId = keyId;
        this.calls = calls;
        this.generation = new KmsKeyGeneration(kms, keyId, calls);
    }

    @Override
    public Uni<DataKey> generate() {
        return generation.generate();
    }

    @Override
    public Uni<byte[]> unwrap(byte[] wrapped, String wrappedBy, String wrappedUnder) {
        // Naming the key makes KMS refuse a blob wrapped under any other, instead of trusting the blob's own metadata;
        // the key named is the one recorded with the blob (its ARN), so a key configured under another name (its
        // ARN instead of an alias) or an alias moved to a new key still unwraps what the old one wrapped. A key
        // recorded before the ARN was names the key as it was configured then.
        String recorded = wrappedUnder != null ? wrappedUnder
                : wrappedBy != null && wrappedBy.startsWith(PREFIX) ? wrappedBy.substring(PREFIX.length()) : keyId;
        return Uni.createFrom().completionStage(() -> {
            calls.record("kms:Decrypt", IamRole.Resource.KEY);
            return kms.decrypt(b -> b.keyId(recorded).ciphertextBlob(SdkBytes.fromByteArray(wrapped)));
        }).map(response -> response.plaintext().asByteArray());
    }

    @Override
    public String name() {
        return PREFIX + keyId;
    }

    @Override
    public boolean opens(String wrappedBy) {
        return wrappedBy == null || wrappedBy.startsWith(PREFIX);
    }
}
