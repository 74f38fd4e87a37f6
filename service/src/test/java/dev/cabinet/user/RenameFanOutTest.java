package dev.cabinet.user;

import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.Concurrently;
import dev.cabinet.support.ProjectorLag;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A rename reaches hundreds of copies: 400 comments (four pages of the fan-out's walk), the user's posts and their
 * memberships. The renames happen while the comments are still being written, so some comments copy the old name first
 * and must converge.
 */
@QuarkusTest
class RenameFanOutTest {

    private static final int COMMENTS = 400;
    private static final int POSTS = 8;
    private static final Duration FAN_OUT_WAIT = Duration.ofMinutes(3);

    @Test
    void aRenameReachesEveryCommentPostAndMembershipOfTheUserEvenWhileTheyAreBeingWritten() {
        String host = newUserId();
        String user = newUserId();
        register(host, "Host");
        register(user, "Before");
        List<String> posts = new ArrayList<>();
        for (int i = 0; i < POSTS; i++) {
            posts.add(createPost(i % 2 == 0 ? host : user, "Thread " + i));
        }
        List<String> groups = List.of(createGroup(host, "Alpha"), createGroup(host, "Beta"), createGroup(user, "Gamma"));
        for (String groupId : groups.subList(0, 2)) {
            as(user).put("/groups/" + groupId + "/members/" + user).then().statusCode(202);
        }

        AtomicInteger written = new AtomicInteger();
        Concurrently.map(IntStream.range(0, COMMENTS).boxed().collect(Collectors.toList()), i -> {
            comment(user, posts.get(i % POSTS), "Comment " + i);
            if (written.incrementAndGet() == COMMENTS / 2) {
                as(user).body(Map.of("name", "Midway")).patch("/users/" + user).then().statusCode(202);
            }
            return i;
        });
        as(user).body(Map.of("name", "After", "avatarUrl", "https://img.example/after.png")).patch("/users/" + user)
                .then().statusCode(202);

        // The projector first (cheap to ask), then the 400 comments (4 pages at every poll).
        ProjectorLag.awaitCaughtUp(FAN_OUT_WAIT);
        await().atMost(FAN_OUT_WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            List<Map<String, Object>> comments = allPages("/users/" + user + "/comments", 100);
            assertEquals(COMMENTS, comments.size());
            assertEquals(Set.of("After"), comments.stream().map(c -> c.get("authorName")).collect(Collectors.toSet()));
            assertEquals(Set.of("https://img.example/after.png"),
                    comments.stream().map(c -> c.get("authorAvatar")).collect(Collectors.toSet()));
        });
        for (String postId : posts) {
            List<Map<String, Object>> onPost = allPages("/posts/" + postId + "/comments", 100);
            assertEquals(COMMENTS / POSTS, onPost.size());
            assertEquals(Set.of("After"), onPost.stream().map(c -> c.get("authorName")).collect(Collectors.toSet()));
        }
        for (int i = 1; i < POSTS; i += 2) {
            given().get("/posts/" + posts.get(i)).then().body("authorName", equalTo("After"))
                    .body("commentCount", equalTo(COMMENTS / POSTS));
        }
        given().get("/posts/" + posts.get(0)).then().body("authorName", equalTo("Host"));
        awaitOk("/groups/" + groups.get(2) + "/members/" + user);
        await().atMost(FAN_OUT_WAIT).untilAsserted(() -> {
            for (String groupId : groups) {
                given().get("/groups/" + groupId + "/members").then()
                        .body("items.find { it.userId == '" + user + "' }.userName", equalTo("After"));
            }
        });
    }
}
