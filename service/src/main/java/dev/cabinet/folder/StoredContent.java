package dev.cabinet.folder;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * What the API asks object storage about a file's content: whether an upload arrived (a HEAD, to confirm it), and a
 * short-lived presigned GET to download it (a local signature, no call to S3). The bytes never pass through Cabinet.
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class StoredContent {

    private static final Logger LOG = Logger.getLogger(StoredContent.class);

    private final S3AsyncClient s3;
    private final S3Presigner presigner;
    private final FilesConfig config;
    private final AwsCallLog callLog;

    StoredContent(S3AsyncClient s3, S3Presigner presigner, FilesConfig config, AwsCallLog callLog) {
        this.s3 = s3;
        this.presigner = presigner;
        this.config = config;
        this.callLog = callLog;
    }

    /** The object's size and content type; empty when there is no object at the address. */
    public Uni<Optional<StoredObject>> head(ObjectAddress address) {
        // HEAD is authorised by s3:GetObject; S3 says a missing object is missing (404) only to a caller that may list
        // the bucket, and 403 to any other (isMissing reads both as missing).
        callLog.record("s3:GetObject", IamRole.Resource.OBJECT);
        callLog.record("s3:ListBucket", IamRole.Resource.BUCKET);
        return Uni.createFrom().completionStage(() -> s3.headObject(head -> head.bucket(address.bucket())
                        .key(address.key())))
                .map(found -> Optional.of(new StoredObject(found.contentLength(), found.contentType())))
                .onFailure(StoredContent::isMissing).recoverWithItem(Optional.empty());
    }

    /** A GET of the object valid for {@link FilesConfig#downloadUrlLifetime()}, answering with the file's name. */
    public URI downloadUrl(ObjectAddress address, String fileName) {
        callLog.record("s3:GetObject", IamRole.Resource.OBJECT);
        return URI.create(presigner.presignGetObject(request -> request
                .signatureDuration(config.downloadUrlLifetime())
                .getObjectRequest(get -> get.bucket(address.bucket()).key(address.key())
                        .responseContentDisposition(attachment(fileName))))
                .url().toString());
    }

    /** RFC 6266 with the RFC 8187 form of the name, so any name arrives intact whatever its characters. */
    static String attachment(String fileName) {
        return "attachment; filename*=UTF-8''" + URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Whether a HEAD's failure says there is no object: 404, or 403 where the role may not list the bucket (S3 then
     * hides whether the key exists). A 403 is logged, since it also means a role without s3:GetObject: an existing
     * upload would then read as missing until the policy is fixed.
     */
    static boolean isMissing(Throwable failure) {
        Throwable cause = failure.getCause() != null && !(failure instanceof S3Exception) ? failure.getCause() : failure;
        if (cause instanceof NoSuchKeyException || cause instanceof S3Exception s3 && s3.statusCode() == 404) {
            return true;
        }
        if (cause instanceof S3Exception s3 && s3.statusCode() == 403) {
            LOG.warnf("S3 answered 403 to a HEAD of an upload: read as missing, which is what it means when the role "
                    + "may not list the bucket; if the object is there, the role lacks s3:GetObject or s3:ListBucket "
                    + "(deploy/iam/cabinet-api-policy.json grants both)");
            return true;
        }
        return false;
    }
}
