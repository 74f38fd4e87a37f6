package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.CounterChange;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.table.Ids;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Timestamps;
import dev.cabinet.user.ProfileCopy;
import dev.cabinet.user.Profiles;
import dev.cabinet.user.UserKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A post's creation takes its second look at the author's profile from the write that counts the post on that
 * profile, instead of reading it again. Forced here: the author is renamed after the name was copied and before the
 * post is written and counted, and the rename's fan-out cannot find the post (no summary yet). The profile the count
 * answers must carry the new name, and repair the post.
 */
@QuarkusTest
class PostCopyRaceTest {

    @Inject
    Profiles profiles;

    @Inject
    ProjectionStore store;

    @Test
    void aPostCountedJustAfterARenameTakesTheNewNameFromTheCount() {
        String author = newUserId();
        register(author, "Before");
        ProfileCopy copied = profiles.current(author).await().indefinitely();
        assertEquals("Before", copied.name());

        String postId = Ids.newId();
        var summary = PostKeys.summary(author, Timestamps.format(Instant.now()), postId);
        CounterChange count = new CounterChange(UserKeys.profile(author), KeyPlan.USER_PROFILE.name(), "postCount", 1,
                summary, PostProjector.COUNTED, Ids.newId());
        profiles.writeCopies(copied,
                copy -> renameAndWaitUntilProjected(author)
                        .chain(() -> store.update(copy.writeName(ItemUpdate.of(PostKeys.metadata(postId),
                                KeyPlan.POST.name()).set("postId", postId), "authorName")))
                        .chain(() -> store.updateAndGet(ItemUpdate.of(summary, KeyPlan.USER_POST.name())
                                .set("postId", postId)))
                        .chain(summaryNow -> store.countOnce(count, summaryNow)),
                now -> PostAuthorCopies.refresh(store, now, postId))
                .await().atMost(Duration.ofSeconds(60));

        Map<String, AttributeValue> post = store.read(PostKeys.metadata(postId)).await().indefinitely().orElseThrow();
        assertEquals("After", post.get("authorName").s());
        Map<String, AttributeValue> profile = store.read(UserKeys.profile(author)).await().indefinitely().orElseThrow();
        assertEquals("1", profile.get("postCount").n());
    }

    private static Uni<Void> renameAndWaitUntilProjected(String user) {
        return Uni.createFrom().item(() -> {
            as(user).body(Map.of("name", "After")).patch("/users/" + user).then().statusCode(202);
            await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + user).then()
                    .body("name", equalTo("After")));
            return (Void) null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
