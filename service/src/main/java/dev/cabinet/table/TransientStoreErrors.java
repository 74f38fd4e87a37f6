package dev.cabinet.table;

import java.util.Set;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Which errors of the AWS services (DynamoDB, KMS, S3) are worth retrying: throttling, timeouts, connection failures
 * and 5xx answers. The projector retries them; a request answers 503 with Retry-After. A refused permission is retried
 * too: nothing but a change of the IAM policy fixes it, and that fixes it without a restart (a request answers 503
 * naming no permission; the log names it).
 */
public final class TransientStoreErrors {

    private static final Set<String> ACCESS_DENIED = Set.of("AccessDeniedException", "AccessDenied");

    private TransientStoreErrors() {
    }

    public static boolean isTransient(Throwable error) {
        Throwable e = unwrapped(error);
        if (isAccessDenied(e)) {
            return true;
        }
        if (e instanceof AwsServiceException service) {
            // Any AWS service's, not DynamoDB's alone: KMS answers its throttling with a 400 that the SDK does not
            // mark retryable, and its DependencyTimeoutException and KMSInternalException with a 503 and a 500.
            return service.retryable() || service.isThrottlingException() || service.statusCode() >= 500;
        }
        return e instanceof SdkClientException || (e instanceof SdkException && ((SdkException) e).retryable());
    }

    /** The store refused the call for want of an IAM permission (DynamoDB's AccessDeniedException, S3's). */
    public static boolean isAccessDenied(Throwable error) {
        return unwrapped(error) instanceof AwsServiceException e && e.awsErrorDetails() != null
                && ACCESS_DENIED.contains(e.awsErrorDetails().errorCode());
    }

    private static Throwable unwrapped(Throwable error) {
        return error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause()
                : error;
    }
}
