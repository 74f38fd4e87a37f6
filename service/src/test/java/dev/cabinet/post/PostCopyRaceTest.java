package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.launcher.StoreHooks;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.BatchEndChecks;
import dev.cabinet.projection.execution.DecidedPlans;
import dev.cabinet.projection.execution.PlanExecutor;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A post's creation looks at the author's profile again once the post is written (a consistent read: the count sent
 * with the post's writes may answer before they land, so its answer cannot serve as that look). Forced here: the
 * author is renamed after the name was copied (the plan was decided) and before the post is written and counted, and
 * the rename's fan-out cannot find the post (no summary yet). The look must see the new name, and repair the post.
 */
@QuarkusTest
class PostCopyRaceTest {

    @Inject
    PostProjector projector;

    @Inject
    PlanExecutor executor;

    @Inject
    BatchEndChecks checks;

    @Inject
    TableWriter store;

    @Test
    void aPostWrittenJustAfterARenameTakesTheNewNameFromItsSecondLook() {
        String author = newUserId();
        register(author, "Before");
        Key profile = KeyPlan.USER_PROFILE.key(author);
        Optional<Map<String, AttributeValue>> copied = store.read(profile).await().indefinitely();
        assertEquals("Before", copied.orElseThrow().get("name").s());

        String postId = Ids.newId();
        PostCreated created = new PostCreated(postId, author, "Race", "Body", Timestamps.format(Instant.now()));
        WritePlan plan = projector.decide(created, new Reads(Optional.empty(), Map.of(profile, copied)));
        ReceivedEvent event = new ReceivedEvent(Ids.newId(), PostEvent.CREATED.name(), postId, author, Instant.now(),
                created, new LogPosition(Topics.POSTS, 0, 0));
        renameAndWaitUntilProjected(author)
                .chain(() -> DecidedPlans.carryOut(executor, projector.target(created), event, plan, Optional.empty(),
                        projector.needs(created)))
                .chain(() -> Uni.createFrom().completionStage(checks::settled))   // its batch's end
                .await().atMost(Duration.ofSeconds(60));

        Map<String, AttributeValue> post = store.read(KeyPlan.POST.key(postId)).await().indefinitely().orElseThrow();
        assertEquals("After", post.get("authorName").s());
        Map<String, AttributeValue> profileNow = store.read(profile).await().indefinitely().orElseThrow();
        assertEquals("1", profileNow.get("postCount").n());
    }

    /**
     * The interleaving that a count's answer would miss, with every step real: the post's writes (its item and the
     * author's summary of it) are held back by the store while the count on the author's profile lands; the author is
     * renamed meanwhile, and the rename's walk of the author's posts finds none. The post's look at the profile, once
     * its writes have landed, must see the new name. Taking that look from the count's answer (sent with those writes,
     * answered before the rename) left "Before" on the post for good.
     */
    @Test
    void aRenameBetweenThePostsCountAndItsWritesReachesThePost() throws Exception {
        String author = newUserId();
        register(author, "Before");
        Key profile = KeyPlan.USER_PROFILE.key(author);
        Optional<Map<String, AttributeValue>> copied = store.read(profile).await().indefinitely();
        String postId = Ids.newId();
        PostCreated created = new PostCreated(postId, author, "Race", "Body", Timestamps.format(Instant.now()));
        WritePlan plan = projector.decide(created, new Reads(Optional.empty(), Map.of(profile, copied)));
        ReceivedEvent event = new ReceivedEvent(Ids.newId(), PostEvent.CREATED.name(), postId, author, Instant.now(),
                created, new LogPosition(Topics.POSTS, 0, 1));
        StoreHooks hooks = new StoreHooks(ConfigProvider.getConfig().getValue("quarkus.dynamodb.endpoint-override",
                String.class));
        hooks.holdWrites(List.of(KeyPlan.POST.partition(postId) + " ", KeyPlan.USER_POST.partition(author) + " POST#"),
                Duration.ofMillis(2500)); // below the store client's attempt timeout (3 s), which would resend
        try {
            CompletableFuture<Void> carried = DecidedPlans.carryOut(executor, projector.target(created), event, plan,
                    Optional.empty(), projector.needs(created)).subscribeAsCompletionStage();
            await().atMost(PROJECTION_WAIT).until(() -> store.read(profile).await().indefinitely()
                    .map(item -> item.get("postCount")).map(count -> count.n().equals("1")).orElse(false));
            assumeTrue(!carried.isDone(), "the post's writes are still held");
            renameAndWaitUntilProjected(author).await().atMost(PROJECTION_WAIT);
            // The interleaving under test; on a machine so slow that the rename took longer than the hold, it did not
            // happen, and the test cannot tell (it is skipped, not passed).
            assumeTrue(store.read(KeyPlan.POST.key(postId)).await().indefinitely().isEmpty(),
                    "the rename was projected while the post's writes were held");
            carried.get(30, TimeUnit.SECONDS);
            checks.settled().toCompletableFuture().get(30, TimeUnit.SECONDS);   // its batch's end
        } finally {
            hooks.noHeldWrites();
        }
        Map<String, AttributeValue> post = store.read(KeyPlan.POST.key(postId)).await().indefinitely().orElseThrow();
        assertEquals("After", post.get("authorName").s());
    }

    /**
     * An edit decided before its author's erasure reached the post (opened with a key cached before it) and written
     * after the erasure's walk replaced the post's text: its second look at the profile finds it erased and puts the
     * placeholders back. Without the look the edit's text stayed for good, the walk's refresh being done.
     */
    @Test
    void anEditWrittenAfterItsAuthorsErasureWalkedThePostLeavesThePlaceholders() {
        String author = newUserId();
        register(author, "Author");
        String postId = createPost(author, "Before");
        Map<String, AttributeValue> root = store.read(KeyPlan.POST.key(postId)).await().indefinitely().orElseThrow();
        PostEdited edited = new PostEdited(postId, "Secret title", "Secret body");
        WritePlan plan = projector.decide(edited, new Reads(Optional.of(root), Map.of()));
        long version = Long.parseLong(root.get("postVersion").n()) + 1_000_000;
        ReceivedEvent event = new ReceivedEvent(Ids.newId(), PostEvent.EDITED.name(), postId, author, Instant.now(),
                edited, new LogPosition(Topics.POSTS, 0, version));

        as(author).header("Prefer", "wait=10").delete("/users/" + author).then().statusCode(200);
        await().atMost(PROJECTION_WAIT).until(() -> "[erased]".equals(given().get("/posts/" + postId).path("title")));
        DecidedPlans.carryOut(executor, projector.target(edited), event, plan, Optional.of(root), List.of())
                .chain(() -> Uni.createFrom().completionStage(checks::settled))   // its batch's end
                .await().atMost(Duration.ofSeconds(60));

        Map<String, AttributeValue> post = store.read(KeyPlan.POST.key(postId)).await().indefinitely().orElseThrow();
        assertEquals("[erased]", post.get("title").s());
        assertEquals("[erased]", post.get("body").s());
        Key summary = KeyPlan.USER_POST.key(author, root.get("createdAt").s(), postId);
        assertEquals("[erased]", store.read(summary).await().indefinitely().orElseThrow().get("title").s());
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
