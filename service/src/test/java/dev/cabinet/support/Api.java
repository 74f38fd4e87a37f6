package dev.cabinet.support;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cabinet.shared.Ids;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/** Test helpers that use the public API the way a client does: tokens, registration, waiting for projections. */
public final class Api {

    /** How long a test waits for the projector; generous for a loaded 2-core machine, never a fixed sleep. */
    public static final Duration PROJECTION_WAIT = Duration.ofSeconds(30);

    private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();

    private Api() {
    }

    /** A fresh user id, so tests sharing one table and one broker never see each other's data. */
    public static String newUserId() {
        return "u" + Ids.newId();
    }

    /** A dev token for the user, made once per user and test run. */
    public static String tokenFor(String userId) {
        return TOKENS.computeIfAbsent(userId, id -> given().contentType(ContentType.JSON).body(Map.of("sub", id))
                .post("/dev/tokens")
                .then().statusCode(200)
                .extract().path("token"));
    }

    /** A dev token with the {@code operator} group, for the operator endpoints under /admin. */
    public static RequestSpecification asOperator() {
        String token = TOKENS.computeIfAbsent("operator", id -> given().contentType(ContentType.JSON)
                .body(Map.of("sub", "ops", "groups", List.of("operator")))
                .post("/dev/tokens")
                .then().statusCode(200)
                .extract().path("token"));
        return given().auth().oauth2(token).contentType(ContentType.JSON);
    }

    public static RequestSpecification as(String userId) {
        return given().auth().oauth2(tokenFor(userId)).contentType(ContentType.JSON);
    }

    /** A command of the user's that answers once its event is applied ({@code Prefer: wait}). */
    public static RequestSpecification waiting(String userId) {
        return as(userId).header("Prefer", "wait=" + PROJECTION_WAIT.toSeconds());
    }

    /** Checks that a command sent {@link #waiting} was applied; returns the id it answered (null if none). */
    public static String applied(Response answer) {
        return answer.then().statusCode(200).body("outcome", equalTo("applied")).extract().path("id");
    }

    /** Registers the user and waits until the profile can be read. */
    public static void register(String userId, String name) {
        as(userId).body(Map.of("name", name, "email", userId + "@example.com"))
                .put("/users/" + userId)
                .then().statusCode(202);
        awaitOk("/users/" + userId);
    }

    /** Creates a post and waits until it can be read; returns its id. */
    public static String createPost(String authorId, String title) {
        String postId = as(authorId).body(Map.of("title", title, "body", "Body of " + title))
                .post("/posts")
                .then().statusCode(202)
                .extract().path("id");
        awaitOk("/posts/" + postId);
        return postId;
    }

    /** Publishes the author's post and waits until it says so. */
    public static void publish(String authorId, String postId) {
        as(authorId).post("/posts/" + postId + "/publish").then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> "published".equals(given().get("/posts/" + postId).path("status")));
    }

    /** Comments on a post (without waiting for the projection); returns the comment's id. */
    public static String comment(String userId, String postId, String text) {
        return as(userId).body(Map.of("text", text)).post("/posts/" + postId + "/comments")
                .then().statusCode(202)
                .extract().path("id");
    }

    /** Creates a group and waits until it can be read; returns its id. */
    public static String createGroup(String creatorId, String name) {
        String groupId = as(creatorId).body(Map.of("name", name, "description", "About " + name))
                .post("/groups")
                .then().statusCode(202)
                .extract().path("id");
        awaitOk("/groups/" + groupId);
        return groupId;
    }

    /** Every item of a list, read page by page with {@code limit} until {@code next} is null. */
    public static List<Map<String, Object>> allPages(String path, int limit) {
        List<Map<String, Object>> items = new ArrayList<>();
        String cursor = null;
        do {
            RequestSpecification request = given().queryParam("limit", limit);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get(path).then().statusCode(200).extract().jsonPath();
            items.addAll(page.getList("items"));
            cursor = page.getString("next");
        } while (cursor != null);
        return items;
    }

    /** One attribute of every item of a list, in list order. */
    public static List<Object> allPages(String path, int limit, String attribute) {
        List<Object> values = new ArrayList<>();
        allPages(path, limit).forEach(item -> values.add(item.get(attribute)));
        return values;
    }

    public static ValidatableResponse awaitOk(String path) {
        await().atMost(PROJECTION_WAIT).until(() -> given().get(path).statusCode() == 200);
        return given().get(path).then().statusCode(200);
    }
}
