package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletionException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.kms.model.KmsException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Which AWS answers the projector waits out and a request answers 503 for: throttling and 5xx of every service the
 * code calls, KMS's included (a throttled Decrypt once parked the person's key as if the event were broken).
 */
class TransientStoreErrorsTest {

    @ParameterizedTest(name = "{0} {1} {2}: transient {3}")
    @CsvSource({
        "kms, 400, ThrottlingException, true",
        "kms, 500, KMSInternalException, true",
        "kms, 503, DependencyTimeoutException, true",
        "kms, 400, KMSInvalidStateException, false",
        "kms, 400, AccessDeniedException, true",
        "dynamodb, 400, ProvisionedThroughputExceededException, true",
        "dynamodb, 400, ValidationException, false",
        "dynamodb, 500, InternalServerError, true",
        "s3, 503, SlowDown, true",
        "s3, 404, NoSuchKey, false"})
    void isTransientForThrottlingAnd5xxOfEveryService(String service, int status, String code, boolean expected) {
        AwsServiceException error = answer(service, status, code);
        assertEquals(expected, TransientStoreErrors.isTransient(error));
        assertEquals(expected, TransientStoreErrors.isTransient(new CompletionException(error)), "as a future fails");
    }

    private static AwsServiceException answer(String service, int status, String code) {
        AwsErrorDetails details = AwsErrorDetails.builder().errorCode(code).errorMessage(code).build();
        return switch (service) {
            case "kms" -> KmsException.builder().statusCode(status).awsErrorDetails(details).build();
            case "dynamodb" -> DynamoDbException.builder().statusCode(status).awsErrorDetails(details).build();
            default -> S3Exception.builder().statusCode(status).awsErrorDetails(details).build();
        };
    }
}
