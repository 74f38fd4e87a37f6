package dev.cabinet.table;

import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Which store errors are worth retrying: throttling, timeouts, connection failures and 5xx answers. The projector
 * retries them; a request answers 503 with Retry-After.
 */
public final class TransientStoreErrors {

    private TransientStoreErrors() {
    }

    public static boolean isTransient(Throwable error) {
        Throwable e = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause()
                : error;
        if (e instanceof DynamoDbException) {
            DynamoDbException dynamo = (DynamoDbException) e;
            return dynamo.retryable() || dynamo.isThrottlingException() || dynamo.statusCode() >= 500;
        }
        return e instanceof SdkClientException || (e instanceof SdkException && ((SdkException) e).retryable());
    }
}
