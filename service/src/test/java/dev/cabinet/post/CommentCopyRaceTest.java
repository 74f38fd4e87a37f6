package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.BatchEndChecks;
import dev.cabinet.projection.execution.DecidedPlans;
import dev.cabinet.projection.execution.PlanExecutor;
import dev.cabinet.projection.execution.Rounds;
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
 * The race a rename fan-out cannot see: a comment copies its author's name (its plan is decided), the author is
 * renamed and the fan-out walks their comments before the new comment is written, and only then is it written. The
 * comment's second look at the profile must repair it. The interleaving is forced here, not left to chance.
 */
@QuarkusTest
class CommentCopyRaceTest {

    @Inject
    CommentProjector projector;

    @Inject
    PlanExecutor executor;

    @Inject
    BatchEndChecks checks;

    @Inject
    TableWriter store;

    @Test
    void aCommentThatCopiedANameJustBeforeARenameEndsWithTheNewName() {
        Commenting race = commenting("Race", "Late");
        CommentAdded added = race.added();
        renameAndWaitForTheFanOut(added.authorId(), race.earlier())
                .chain(() -> store.read(KeyPlan.POST.key(added.postId())))
                .chain(post -> DecidedPlans.carryOut(executor, projector.target(added), received(added,
                        Long.parseLong(post.orElseThrow().get("postVersion").n()) + 1), race.plan(), post,
                        projector.needs(added)))
                .chain(() -> Uni.createFrom().completionStage(checks::settled))   // its batch's end
                .await().atMost(Duration.ofSeconds(60));

        assertEquals("After", authorNameOn(added));
    }

    /**
     * A comment written together with its recording write, which a crash cut off: the comment, decided before a rename,
     * landed after the rename's fan-out had passed; the event, delivered again, is decided anew from the renamed
     * profile, so its comment write is refused (the first attempt's is there) and its copy check has nothing newer to
     * see. The refused write tells the executor the event was half applied, and the copy is refreshed anyway.
     */
    @Test
    void aCommentHalfAppliedBeforeARenameAndDecidedAgainAfterItEndsWithTheNewName() {
        Commenting crash = commenting("Crash", "Cut off");
        CommentAdded added = crash.added();
        WritePlan first = crash.plan();
        Map<String, AttributeValue> post = store.read(KeyPlan.POST.key(added.postId())).await().indefinitely()
                .orElseThrow();
        long version = Long.parseLong(post.get("postVersion").n()) + 1;
        assertTrue(Rounds.recordsWithWrites(projector.target(added), first, projector.needs(added)));
        renameAndWaitForTheFanOut(added.authorId(), crash.earlier()).await().atMost(Duration.ofSeconds(60));
        // The first attempt's comment lands; its recording write does not (the crash).
        first.steps().stream().filter(WritePlan.Write.class::isInstance).map(step -> ((WritePlan.Write) step).update())
                .forEach(write -> store.update(write.withKey(write.key()).guardedBy("postVersion", version))
                        .await().indefinitely());

        DecidedPlans.carryOut(executor, projector.target(added), received(added, version), decided(added),
                Optional.of(post), projector.needs(added)).chain(() -> Uni.createFrom().completionStage(checks::settled))
                .await().atMost(Duration.ofSeconds(60));

        assertEquals("After", authorNameOn(added));
    }

    /** A user "Before" who commented ({@code earlier}) on a host's post, and their next comment with its plan. */
    private record Commenting(String earlier, CommentAdded added, WritePlan plan) {
    }

    private Commenting commenting(String title, String text) {
        String host = newUserId();
        String user = newUserId();
        register(host, "Host");
        register(user, "Before");
        String postId = createPost(host, title);
        String earlier = comment(user, postId, "Already there");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId + "/comments").then()
                .body("items[0].id", equalTo(earlier)));
        CommentAdded added = new CommentAdded(postId, Ids.newId(), user, text, Timestamps.format(Instant.now()));
        return new Commenting(earlier, added, decided(added));
    }

    /** The comment as the projector receives it, at {@code version} of its post's stream. */
    private static ReceivedEvent received(CommentAdded added, long version) {
        return new ReceivedEvent(Ids.newId(), CommentEvent.ADDED.name(), added.postId(), added.authorId(),
                Instant.now(), added, new LogPosition(Topics.POSTS, 0, version));
    }

    /** The author's name on the comment's item as it is now. */
    private String authorNameOn(CommentAdded added) {
        Key comment = KeyPlan.COMMENT.key(added.postId(), added.createdAt(), added.commentId());
        return store.read(comment).await().indefinitely().orElseThrow().get("authorName").s();
    }

    /** The comment's plan from its author's profile as it is now. */
    private WritePlan decided(CommentAdded added) {
        Key profile = KeyPlan.USER_PROFILE.key(added.authorId());
        Key comment = KeyPlan.COMMENT.key(added.postId(), added.createdAt(), added.commentId());
        return projector.decide(added, new Reads(Optional.empty(),
                Map.of(profile, store.read(profile).await().indefinitely(), comment, Optional.empty())));
    }

    /** The rename, through the API, and its fan-out reaching the comment that already existed. */
    private static Uni<Void> renameAndWaitForTheFanOut(String user, String existingComment) {
        return Uni.createFrom().item(() -> {
            as(user).body(Map.of("name", "After")).patch("/users/" + user).then().statusCode(202);
            await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + user + "/comments").then()
                    .body("items.find { it.id == '" + existingComment + "' }.authorName", equalTo("After")));
            return (Void) null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
