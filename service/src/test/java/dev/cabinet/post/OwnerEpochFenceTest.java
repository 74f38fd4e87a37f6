package dev.cabinet.post;

import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.BatchEndChecks;
import dev.cabinet.projection.execution.CountTokenRelease;
import dev.cabinet.projection.execution.DecidedPlans;
import dev.cabinet.projection.execution.PlanExecutor;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.FencedCountException;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Two attempts of one post's creation under two owners of its partition, staged with every write real: the older
 * owner stalled past its session while the partition moved on. A post's count goes out beside its summary's write,
 * so a refused recording does not stop it; only the owner epochs keep the author's post count at one. Each attempt is
 * a decision made from what it read, carried out later (PlanExecutor#carryOut), and its batch's end
 * (CountTokenRelease#settled) when the interleaving puts it.
 */
@QuarkusTest
class OwnerEpochFenceTest {

    /** No projector reads the dead letters: raising its partitions' epochs fences only the attempts staged here. */
    private static final String TOPIC = Topics.DEAD_LETTERS;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PostProjector projector;

    @Inject
    LikeProjector likes;

    @Inject
    PlanExecutor executor;

    @Inject
    CountTokenRelease tokens;

    @Inject
    BatchEndChecks checks;

    @Inject
    ProjectionProgress progress;

    @Inject
    TableWriter store;

    /**
     * The older owner read the profile, then stalled; the next owner applied the post whole, counted, flagged and
     * released. The older one wakes: its recording is refused and its count, sent beside it, finds no pending token,
     * but a newer epoch: it gives the post up.
     */
    @Test
    void anAttemptThatWakesAfterTheNextOwnerCountedGivesThePostUp() {
        Staged post = stage();
        WritePlan stalledDecision = post.decide();

        executor.apply(projector, post.under(post.nextEpoch)).await().atMost(WAIT);
        batchEnds();
        assertEquals("1", postCount(post.author));

        assertThrows(FencedCountException.class, () -> post.carryOut(stalledDecision, post.olderEpoch));
        batchEnds();

        assertEquals("1", postCount(post.author), "counted by the next owner alone");
        assertFalse(profile(post.author).containsKey(TableWriter.PENDING_COUNTS));
    }

    /**
     * The next owner read the profile, then stalled before its writes; the older owner woke and applied the post
     * whole. It counted and flagged, but keeps its token: its partition has a newer owner. The next owner's recording
     * is refused, and its count beside it is refused by that token (made before); it then releases the token itself.
     */
    @Test
    void theNextOwnersCountBesideItsRefusedRecordingFindsTheTokenTheOlderOwnerKept() {
        Staged post = stage();
        WritePlan nextDecision = post.decide();

        executor.apply(projector, post.under(post.olderEpoch)).await().atMost(WAIT);
        batchEnds();
        assertEquals("1", postCount(post.author));
        assertEquals(List.of(post.eventId), pending(post.author),
                "the older owner releases no token once its partition has a newer owner");

        post.carryOut(nextDecision, post.nextEpoch);
        batchEnds();

        assertEquals("1", postCount(post.author), "counted by the older owner alone");
        assertFalse(profile(post.author).containsKey(TableWriter.PENDING_COUNTS), "the next owner released it");
    }

    /**
     * A like's count goes out beside its recording, the like item it is marked on: the stalled attempt of a like wakes
     * after the next owner applied it whole, and is given up the same way.
     */
    @Test
    void aLikeThatWakesAfterTheNextOwnerCountedIsGivenUp() {
        String author = newUserId();
        register(author, "Liked");
        String postId = createPost(author, "Liked");
        TopicPartition partition = freshPartition();
        long older = raise(partition, 1);
        long next = raise(partition, 2);
        String user = newUserId();
        PostLiked liked = new PostLiked(postId, user, Timestamps.format(Instant.now()));
        ReceivedEvent event = new ReceivedEvent(Ids.newId(), LikeEvent.LIKED.name(), user, user, Instant.now(), liked,
                new LogPosition(TOPIC, partition.partition(), 7));
        WritePlan stalledDecision = likes.decide(liked, new Reads(Optional.empty(), Map.of()));

        executor.apply(likes, event.underEpoch(next)).await().atMost(WAIT);
        batchEnds();
        assertThrows(FencedCountException.class, () -> DecidedPlans.carryOut(executor, likes.target(liked),
                event.underEpoch(older), stalledDecision, Optional.empty(), likes.needs(liked)).await().atMost(WAIT));
        batchEnds();

        assertEquals(1, given().get("/posts/" + postId).then().statusCode(200).extract().jsonPath()
                .getLong("likeCount"), "counted by the next owner alone");
    }

    /** The running projector raised its partitions' epochs when they were assigned, and its counts carry them. */
    @Test
    void theProjectorsCountsCarryTheEpochTheirPartitionHadWhenAssigned() {
        String author = newUserId();
        register(author, "Counted");
        createPost(author, "Fenced");
        await().atMost(PROJECTION_WAIT).until(() -> "1".equals(postCount(author)));

        Map<String, AttributeValue> profile = profile(author);
        List<String> fences = profile.keySet().stream().filter(name -> name.startsWith("epoch#" + Topics.POSTS + "#"))
                .toList();
        assertEquals(1, fences.size(), profile.keySet().toString());
        int partition = Integer.parseInt(fences.get(0).substring(fences.get(0).lastIndexOf('#') + 1));
        long counted = Items.number(profile, fences.get(0));
        long latest = Items.number(store.read(ProjectionProgress.key(Topics.POSTS, partition)).await().atMost(WAIT)
                .orElseThrow(), Attributes.OWNER_EPOCH);
        assertTrue(counted >= 1 && counted <= latest, counted + " counted, " + latest + " the latest epoch");
    }

    /** A partition's progress item is written when it is assigned, before anything of it is applied. */
    @Test
    void aPartitionWhoseEpochWasRaisedHasAppliedNothingYet() {
        TopicPartition partition = freshPartition();
        raise(partition, 1);

        assertFalse(progress.isApplied(new LogPosition(TOPIC, partition.partition(), 0)).await().atMost(WAIT),
                "offset 0 is not applied");
    }

    /**
     * A raise that lands late (after a store outage, or a stall before it was sent) must not hand its member the newest
     * epoch: the group's generations order the raises, and one of an older generation is refused.
     */
    @Test
    void aRaiseOfAnOlderGenerationThatLandsLateLeavesThePartitionToTheNewerOwner() {
        TopicPartition partition = freshPartition();
        long newer = raise(partition, 7);

        assertEquals(ProjectionProgress.STALE, raise(partition, 6), "the older generation's raise is stale");
        assertEquals(newer + 1, raise(partition, 7),
                "the same generation raises again (a static member rejoins without a rebalance)");
        assertEquals(newer + 2, raise(partition, 8));
    }

    /**
     * Generations start again when the group is recreated (its offsets expired) or moved to another cluster: a stored
     * generation above this one, raised an hour or more before this assignment, is that previous life, and the epoch
     * goes on rising; one raised less long before is a newer owner's (a stall between the group's answer and the
     * listener).
     */
    @Test
    void aStoredGenerationRaisedLongBeforeThisAssignmentIsAPreviousLifeOfTheGroup() {
        TopicPartition partition = freshPartition();
        long previousLife = raise(partition, 40);
        assertEquals(ProjectionProgress.STALE, progress.raiseOwnerEpoch(partition, 39,
                Instant.now().plus(Duration.ofSeconds(40))).await().atMost(WAIT), "a member that stalled 40 s");

        long recreated = progress.raiseOwnerEpoch(partition, 1, Instant.now().plus(Duration.ofHours(2)))
                .await().atMost(WAIT);

        assertEquals(previousLife + 1, recreated);
        assertEquals(recreated + 1, raise(partition, 2), "the new life's generations order the raises from then on");
    }

    private long raise(TopicPartition partition, int generation) {
        return progress.raiseOwnerEpoch(partition, generation, Instant.now()).await().atMost(WAIT);
    }

    private static TopicPartition freshPartition() {
        return new TopicPartition(TOPIC, 1000 + ThreadLocalRandom.current().nextInt(1_000_000));
    }

    private Staged stage() {
        String author = newUserId();
        register(author, "Staged");
        TopicPartition partition = freshPartition();
        long older = raise(partition, 1);
        long next = raise(partition, 2);
        PostCreated created = new PostCreated(Ids.newId(), author, "Staged", "Body", Timestamps.format(Instant.now()));
        return new Staged(author, created, Ids.newId(), new LogPosition(TOPIC, partition.partition(), 5), older, next);
    }

    /** One post's creation, as its two owners see it. */
    private final class Staged {
        final String author;
        final PostCreated created;
        final String eventId;
        final LogPosition position;
        final long olderEpoch;
        final long nextEpoch;

        Staged(String author, PostCreated created, String eventId, LogPosition position, long olderEpoch,
                long nextEpoch) {
            this.author = author;
            this.created = created;
            this.eventId = eventId;
            this.position = position;
            this.olderEpoch = olderEpoch;
            this.nextEpoch = nextEpoch;
        }

        ReceivedEvent under(long epoch) {
            return new ReceivedEvent(eventId, PostEvent.CREATED.name(), created.postId(), author, Instant.now(),
                    created, position).underEpoch(epoch);
        }

        /** The decision an attempt makes from what it reads before the other attempt writes anything. */
        WritePlan decide() {
            Key profile = KeyPlan.USER_PROFILE.key(author);
            return projector.decide(created, new Reads(Optional.empty(),
                    Map.of(profile, store.read(profile).await().atMost(WAIT))));
        }

        void carryOut(WritePlan decided, long epoch) {
            DecidedPlans.carryOut(executor, projector.target(created), under(epoch), decided, Optional.empty(),
                    projector.needs(created)).await().atMost(WAIT);
        }
    }

    private void batchEnds() {
        tokens.settled().toCompletableFuture().join();
        checks.settled().toCompletableFuture().join();
    }

    private Map<String, AttributeValue> profile(String author) {
        return store.read(KeyPlan.USER_PROFILE.key(author)).await().atMost(WAIT).orElseThrow();
    }

    private List<String> pending(String author) {
        AttributeValue pending = profile(author).get(TableWriter.PENDING_COUNTS);
        return pending == null ? List.of() : pending.ss();
    }

    private String postCount(String author) {
        AttributeValue count = profile(author).get("postCount");
        return count == null ? null : count.n();
    }
}
