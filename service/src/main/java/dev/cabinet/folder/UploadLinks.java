package dev.cabinet.folder;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * Presigns the S3 PUT through which a client uploads a file's content. Presigning is a local signature with the
 * service's credentials: no call to S3. The object key holds ids only, never user text.
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class UploadLinks {

    private final S3Presigner presigner;
    private final FilesConfig config;
    private final AwsCallLog callLog;

    UploadLinks(S3Presigner presigner, FilesConfig config, AwsCallLog callLog) {
        this.presigner = presigner;
        this.config = config;
        this.callLog = callLog;
    }

    static String objectKey(String folderId, String fileId) {
        return IamRole.OBJECT_PREFIX + folderId + "/files/" + fileId;
    }

    String contentUrl(String objectKey) {
        return "s3://" + config.bucket() + "/" + objectKey;
    }

    /** A PUT of exactly {@code size} bytes of {@code contentType}; the client must send the headers it lists. */
    Upload presign(String objectKey, String contentType, long size) {
        return presign(new ObjectAddress(config.bucket(), objectKey), contentType, size);
    }

    /** As {@link #presign(String, String, long)}, to the object at {@code address} (a file added before, say). */
    Upload presign(ObjectAddress address, String contentType, long size) {
        // No call to intercept: the PUT is made later, by the client, with the permission of these credentials.
        callLog.record("s3:PutObject", IamRole.Resource.OBJECT);
        PresignedPutObjectRequest presigned = presigner.presignPutObject(request -> request
                .signatureDuration(config.uploadUrlLifetime())
                .putObjectRequest(put -> put.bucket(address.bucket()).key(address.key()).contentType(contentType)
                        .contentLength(size)));
        Map<String, String> headers = new TreeMap<>();
        presigned.signedHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                headers.put(name, String.join(",", values));
            }
        });
        return new Upload("PUT", presigned.url().toString(), headers, presigned.expiration());
    }

    /** How to send a file's content: the method, the presigned URL, the headers to send, and until when it works. */
    public record Upload(String method, String url, Map<String, String> headers, Instant expiresAt) {
    }
}
