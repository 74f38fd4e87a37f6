package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.logging.Level;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.LogLines;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.kms.model.KmsException;

/**
 * A permission another service than DynamoDB refused (KMS, S3), which no store meter sees, is logged where the 503 is
 * made, naming the service and what it said; DynamoDB's own refusals are logged by its meter, not twice.
 */
class MissingPermissionLogTest {

    private static final UriInfo URI = (UriInfo) Proxy.newProxyInstance(UriInfo.class.getClassLoader(),
            new Class<?>[] { UriInfo.class }, (proxy, method, args) -> "getPath".equals(method.getName())
                    ? "/posts" : null);

    @Test
    void aKmsRefusalAnswers503AndTheLogNamesKmsAndWhatItSaid() {
        KmsException refused = (KmsException) KmsException.builder().statusCode(400)
                .message("User is not authorized to perform: kms:GenerateDataKey")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDeniedException").serviceName("Kms")
                        .build()).build();
        try (LogLines log = LogLines.of(HttpProblemMapper.class)) {
            Response answer = new HttpProblemMapper().store(refused, URI);
            assertEquals(503, answer.getStatus());
            List<String> errors = log.atLeast(Level.SEVERE);
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).contains("Kms") && errors.get(0).contains("kms:GenerateDataKey")
                    && errors.get(0).contains("/posts"), errors.get(0));
        }
    }

    @Test
    void aDynamoDbRefusalIsLeftToItsMeter() {
        DynamoDbException refused = (DynamoDbException) DynamoDbException.builder().statusCode(400)
                .message("not authorized to perform: dynamodb:UpdateItem")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDeniedException").serviceName("DynamoDb")
                        .build()).build();
        try (LogLines log = LogLines.of(HttpProblemMapper.class)) {
            assertEquals(503, new HttpProblemMapper().store(refused, URI).getStatus());
            assertEquals(List.of(), log.atLeast(Level.SEVERE));
        }
    }
}
