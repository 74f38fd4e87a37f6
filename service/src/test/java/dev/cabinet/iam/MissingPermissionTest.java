package dev.cabinet.iam;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.LogLines;
import dev.cabinet.support.PermissionDenial;
import dev.cabinet.table.StoreCallMeter;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A call the IAM policy does not allow (a real AccessDeniedException answer, see {@link PermissionDenial}) is an
 * operators' problem: the request answers a 503 problem that names no permission, the log names the action, the
 * resource and the policy that grants it, and the projector retries until the permission is there.
 */
@QuarkusTest
class MissingPermissionTest {

    @Test
    void aRefusedWriteOfAnIdempotencyRecordAnswers503AndTheLogNamesThePermission() throws Exception {
        String user = newUserId();
        register(user, "Denied");
        try (LogLines log = LogLines.of(StoreCallMeter.class);
                AutoCloseable denial = PermissionDenial.deny("UpdateItem", "IDEMPOTENCY#")) {
            as(user).header("Idempotency-Key", "denied-1").body(Map.of("title", "T", "body", "b")).post("/posts")
                    .then().statusCode(503).contentType("application/problem+json")
                    .body("type", equalTo("urn:cabinet:problem:missing-permission"))
                    .body("detail", equalTo("the service lacks a permission it needs for this request; its operators "
                            + "have been told"))
                    .body(not(containsString("dynamodb")))
                    .body(not(containsString("arn:aws")));
            assertFalse(log.atLeast(Level.SEVERE).stream().noneMatch(line -> line.startsWith(
                    "Missing permission: dynamodb:UpdateItem on table/cabinet was refused to this instance "
                            + "(cabinet.role=both); attach deploy/iam/cabinet-api-policy.json or "
                            + "deploy/iam/cabinet-projector-policy.json or deploy/iam/cabinet-operator-policy.json to "
                            + "its IAM role")),
                    () -> "no error naming the permission among " + log.atLeast(Level.SEVERE));
        }
        // Granted again, the same request goes through.
        as(user).header("Idempotency-Key", "denied-1").body(Map.of("title", "T", "body", "b")).post("/posts")
                .then().statusCode(202);
    }

    /**
     * An erasure whose key destruction is refused answers as any refused permission does: a 503 naming none, without
     * Retry-After (it answered a retryable "incomplete" quoting AWS's message: the role's ARN, account and table).
     */
    @Test
    void anErasureWhoseKeyDestructionIsRefusedNamesNoPermission() throws Exception {
        String user = newUserId();
        register(user, "Erased later");
        try (AutoCloseable denial = PermissionDenial.deny("UpdateItem", "SUBJECT#" + user)) {
            as(user).delete("/users/" + user).then().statusCode(503)
                    .body("type", equalTo("urn:cabinet:problem:missing-permission"))
                    .body(not(containsString("arn:aws")))
                    .body(not(containsString("dynamodb")));
        }
        as(user).delete("/users/" + user).then().statusCode(202);
    }

    @Test
    void theProjectorRetriesARefusedWriteLoggingThePermissionUntilItIsGranted() throws Exception {
        String user = newUserId();
        try (LogLines log = LogLines.of(StoreCallMeter.class);
                AutoCloseable denial = PermissionDenial.deny("UpdateItem", "USER#" + user)) {
            as(user).body(Map.of("name", "Patient", "email", user + "@example.com")).put("/users/" + user)
                    .then().statusCode(202);
            await().atMost(Duration.ofSeconds(30)).until(() -> log.atLeast(Level.SEVERE).stream().anyMatch(line ->
                    line.startsWith("Missing permission: dynamodb:UpdateItem on table/cabinet was refused to this "
                            + "instance (cabinet.role=both); attach ")
                            && line.contains("deploy/iam/cabinet-projector-policy.json")
                            && line.contains("is not authorized to perform: dynamodb:UpdateItem")));
        }
        // Neither parked nor dead-lettered: once the policy allows the write, the profile is projected.
        awaitOk("/users/" + user).body("name", equalTo("Patient"));
    }
}
