package dev.cabinet.iam;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import dev.cabinet.support.ProductionClasses;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kms.KmsAsyncClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Every class that holds an AWS client says which roles it acts for, so that each call it makes is checked against
 * a policy (IamPoliciesIT), even one no test has made yet.
 */
class AwsCallersTest {

    private static final List<Class<?>> CLIENTS = List.of(DynamoDbAsyncClient.class, DynamoDbClient.class,
            S3Client.class, S3AsyncClient.class, S3Presigner.class, KmsAsyncClient.class, KmsClient.class);

    @Test
    void everyClassThatHoldsAnAwsClientIsMarkedWithItsRoles() {
        classes().should(new ArchCondition<JavaClass>("be marked @CallsAws when holding an AWS client") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                boolean holdsClient = type.getFields().stream().anyMatch(
                        field -> CLIENTS.stream().anyMatch(client -> field.getRawType().isAssignableTo(client)));
                if (holdsClient && !type.isAnnotatedWith(CallsAws.class)) {
                    events.add(SimpleConditionEvent.violated(type,
                            type.getName() + " holds an AWS client but is not marked @CallsAws"));
                }
            }
        }).check(ProductionClasses.all());
    }
}
