package dev.cabinet.user;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.tokenFor;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.http.TextPatternValidator;
import dev.cabinet.support.EventLogReader;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class UserApiTest {

    @Inject
    MeterRegistry registry;

    @Test
    void aUserRegistersTheirProfileAndReadsItBackOnceProjected() {
        String id = newUserId();
        as(id).body(Map.of("name", "Ada", "email", "ada@example.com", "avatarUrl", "https://img.example/ada.png"))
                .put("/users/" + id)
                .then().statusCode(202)
                .header("Location", containsString("/users/" + id))
                .body("eventId", matchesPattern("[0-9A-Z]{26}"))
                .body("type", equalTo("cabinet.user.registered.v1"))
                .body("position", matchesPattern("cabinet\\.users:\\d+:\\d+"))
                .body("id", equalTo(id));

        awaitOk("/users/" + id)
                .body("name", equalTo("Ada"))
                .body("avatarUrl", equalTo("https://img.example/ada.png"))
                .body("postCount", equalTo(0))
                .body("email", nullValue());
        as(id).get("/users/" + id).then().statusCode(200).body("email", equalTo("ada@example.com"));
    }

    @Test
    void patchChangesOnlyTheGivenFieldsAndPutOnAnExistingProfileReplacesThem() {
        String id = newUserId();
        register(id, "Grace");
        as(id).body(Map.of("name", "Grace H.")).patch("/users/" + id).then().statusCode(202)
                .body("type", equalTo("cabinet.user.profile-updated.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + id).then().body("name", equalTo("Grace H.")));
        as(id).get("/users/" + id).then().body("email", equalTo(id + "@example.com"));

        String registeredAt = given().get("/users/" + id).path("registeredAt");
        as(id).body(Map.of("name", "Grace Hopper", "email", "grace@example.com")).put("/users/" + id).then().statusCode(202)
                .body("type", equalTo("cabinet.user.registered.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> as(id).get("/users/" + id).then()
                .body("name", equalTo("Grace Hopper")).body("email", equalTo("grace@example.com"))
                .body("registeredAt", equalTo(registeredAt)));
    }

    /** PUT replaces the whole profile: an avatar it leaves out is removed, here and on the person's comments. */
    @Test
    void putWithoutAnAvatarRemovesIt() {
        String id = newUserId();
        as(id).body(Map.of("name", "Ada", "email", id + "@example.com", "avatarUrl", "https://example.com/ada.png"))
                .put("/users/" + id).then().statusCode(202);
        awaitOk("/users/" + id);
        String post = createPost(id, "Avatars");
        as(id).header("Prefer", "wait=" + PROJECTION_WAIT.toSeconds()).body(Map.of("text", "with a face"))
                .post("/posts/" + post + "/comments").then().statusCode(200);
        given().get("/posts/" + post + "/comments").then().body("items[0].authorAvatar",
                equalTo("https://example.com/ada.png"));
        as(id).header("Prefer", "wait=" + PROJECTION_WAIT.toSeconds())
                .body(Map.of("name", "Ada", "email", id + "@example.com")).put("/users/" + id).then().statusCode(200)
                .body("outcome", equalTo("applied"));
        given().get("/users/" + id).then().statusCode(200).body("avatarUrl", nullValue());
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + post + "/comments").then()
                .body("items[0].authorAvatar", nullValue()));
    }

    @Test
    void aBurstOfChangesToOneProfileIsAppliedInLogOrderEndingWithTheLast() {
        String id = newUserId();
        register(id, "Name 0");
        String token = tokenFor(id);
        for (int i = 1; i <= 25; i++) {
            given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("name", "Name " + i))
                    .patch("/users/" + id).then().statusCode(202);
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + id).then().body("name", equalTo("Name 25")));
    }

    @Test
    void aUserMayNotWriteAnotherUsersProfile() {
        String me = newUserId();
        String other = newUserId();
        as(me).body(Map.of("name", "Mallory", "email", "m@example.com")).put("/users/" + other)
                .then().statusCode(403)
                .contentType("application/problem+json")
                .body("status", equalTo(403))
                .body("type", equalTo("urn:cabinet:problem:forbidden"));
    }

    @Test
    void commandsWithoutAValidTokenAreUnauthorized() {
        String id = newUserId();
        given().contentType(ContentType.JSON).body(Map.of("name", "A", "email", "a@example.com")).put("/users/" + id)
                .then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("Bearer"));
        given().auth().oauth2("not.a.token").contentType(ContentType.JSON).body(Map.of("name", "A", "email", "a@example.com"))
                .put("/users/" + id)
                .then().statusCode(401).contentType("application/problem+json");
    }

    /** A token altered after the same token was accepted is refused: nothing about a token is trusted from before. */
    @Test
    void aTokenAlteredAfterItWasAcceptedIsRefused() {
        String id = newUserId();
        String token = tokenFor(id);
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("name", "A", "email", "a@example.com"))
                .put("/users/" + id).then().statusCode(202);
        // one character in the middle of the signature (the last one carries padding bits a decoder may ignore)
        int at = token.lastIndexOf('.') + (token.length() - token.lastIndexOf('.')) / 2;
        String altered = token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1);
        given().auth().oauth2(altered).contentType(ContentType.JSON).body(Map.of("name", "B", "email", "b@example.com"))
                .put("/users/" + id).then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("name", "C", "email", "c@example.com"))
                .put("/users/" + id).then().statusCode(202);
    }

    /** A token verified once is answered from memory on the requests after (VerifiedTokens), as the same caller. */
    @Test
    void aTokenIsVerifiedOnceForTheRequestsThatFollow() {
        String id = newUserId();
        String token = tokenFor(id);
        double verified = tokens("verified");
        double remembered = tokens("remembered");

        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("name", "A", "email", "a@example.com"))
                .put("/users/" + id).then().statusCode(202);
        for (int i = 0; i < 3; i++) {
            given().auth().oauth2(token).contentType(ContentType.JSON)
                    .body(Map.of("name", "B" + i, "email", "b@example.com"))
                    .put("/users/" + id).then().statusCode(202);
        }
        given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("name", "C", "email", "c@example.com"))
                .put("/users/" + newUserId()).then().statusCode(403);   // still this caller, not someone else

        assertEquals(1, tokens("verified") - verified, "smallrye-jwt verified the token once");
        assertEquals(4, tokens("remembered") - remembered, "the requests after it were answered from memory");
    }

    private double tokens(String outcome) {
        return registry.counter("cabinet.auth.tokens", "outcome", outcome).count();
    }

    @Test
    void invalidProfilesAreRefusedNamingTheField() {
        String id = newUserId();
        as(id).body(Map.of("email", "a@example.com")).put("/users/" + id)
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("name"));
        as(id).body(Map.of("name", "A", "email", "not-an-email")).put("/users/" + id)
                .then().statusCode(400).body("errors.field", hasItem("email"));
        as(id).body(Map.of("name", "A\u0000B", "email", "a@example.com")).put("/users/" + id)
                .then().statusCode(400).body("errors.field", hasItem("name"));
        as(id).body(Map.of("name", "A", "email", "a@example.com", "avatarUrl", "javascript:alert(1)")).put("/users/" + id)
                .then().statusCode(400).body("errors.field", hasItem("avatarUrl"));
        as(id).body(Map.of()).patch("/users/" + id)
                .then().statusCode(400).contentType("application/problem+json");
    }

    @Inject
    Validator validator;

    /** The application's validator checks the name's pattern by the scan (TextPatternValidatorTest), not a regex. */
    @Test
    void patternsAreCheckedByCabinetsValidator() {
        List<Class<?>> checkedBy = validator.getConstraintsForClass(ProfileRequest.class).getConstraintsForProperty("name")
                .getConstraintDescriptors().stream().filter(constraint -> constraint.getAnnotation() instanceof Pattern)
                .flatMap(constraint -> constraint.getConstraintValidatorClasses().stream())
                .collect(Collectors.toList());
        assertEquals(List.of(TextPatternValidator.class), checkedBy);
    }

    @Test
    void malformedOrMisshapenJsonIsA400() {
        String id = newUserId();
        as(id).body("{\"name\": \"A\", ").put("/users/" + id)
                .then().statusCode(400).contentType("application/problem+json")
                .body("type", equalTo("urn:cabinet:problem:malformed-json"));
        as(id).body(Map.of("name", "A", "email", "a@example.com", "actor", "someone-else")).put("/users/" + id)
                .then().statusCode(400).body("errors.field", hasItem("actor"));
        as(id).body(Map.of("name", List.of("A"), "email", "a@example.com")).put("/users/" + id)
                .then().statusCode(400).body("errors.field", hasItem("name"));
        as(id).body("").put("/users/" + id)
                .then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void aWrongContentTypeOrMethodIsAProblemToo() {
        String id = newUserId();
        given().auth().oauth2(tokenFor(id)).contentType(ContentType.TEXT)
                .body("name=A").put("/users/" + id)
                .then().statusCode(415).contentType("application/problem+json").body("status", equalTo(415));
        given().post("/users/" + id)
                .then().statusCode(405).contentType("application/problem+json");
    }

    @Test
    void anIdThatIsNotInTheSafeAlphabetIsA400() {
        given().get("/users/a%23b").then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("id"));
    }

    @Test
    void anUnknownUserIsA404ProblemAndPatchingOneToo() {
        String id = newUserId();
        given().get("/users/" + id).then().statusCode(404).contentType("application/problem+json")
                .body("type", equalTo("urn:cabinet:problem:not-found"));
        as(id).body(Map.of("name", "X")).patch("/users/" + id).then().statusCode(404);
    }

    @Test
    void refusedCommandsWriteNoEvent() {
        String id = newUserId();
        as(id).body(Map.of("email", "a@example.com")).put("/users/" + id).then().statusCode(400);
        as(newUserId()).body(Map.of("name", "A", "email", "a@example.com")).put("/users/" + id).then().statusCode(403);
        given().contentType(ContentType.JSON).body(Map.of("name", "A", "email", "a@example.com")).put("/users/" + id)
                .then().statusCode(401);
        as(id).body(Map.of("name", "X")).patch("/users/" + id).then().statusCode(404);
        String accepted = as(id).body(Map.of("name", "A", "email", "a@example.com")).put("/users/" + id)
                .then().statusCode(202).extract().path("eventId");

        // The accepted command is written after the refused ones, so reading up to the end now sees all of them.
        List<ConsumerRecord<String, byte[]>> records = EventLogReader.recordsWithKey(Topics.USERS, id);
        assertEquals(List.of(accepted),
                records.stream().map(r -> EventLogReader.header(r, "ce_id")).collect(Collectors.toList()));
    }
}
