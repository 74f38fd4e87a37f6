package dev.cabinet.post;

import static dev.cabinet.decision.Rules.NOW;
import static dev.cabinet.decision.Rules.appends;
import static dev.cabinet.decision.Rules.conflict;
import static dev.cabinet.decision.Rules.notFound;
import static dev.cabinet.decision.Rules.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.decision.Decision;
import dev.cabinet.post.LikeDecisions.LikeCommand;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.LikeEvent.PostUnliked;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.OrphanCheck;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The rules of likes, as the commands decide them and as the projector plans them; no Quarkus, no table. */
class LikeDecisionsTest {

    private static final int SHARDS = 8;
    private static final LikeProjector PROJECTOR = new LikeProjector(SHARDS);
    private static final String LIKED_AT = "2026-06-01T12:00:00.000Z";
    private static final Key LIKE = KeyPlan.LIKE.key("p1", "ann");
    private static final Key SHARD = KeyPlan.POST_COUNTER.key("p1", Shards.of("ann", SHARDS));
    private static final Key TOMBSTONE = KeyPlan.POST_TOMBSTONE.key("p1");
    private static final PostLiked LIKES = new PostLiked("p1", "ann", LIKED_AT);
    private static final PostUnliked UNLIKES = new PostUnliked("p1", "ann", LIKED_AT);

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandRules")
    void theCommandFollowsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> commandRules() {
        return Stream.of(
                rule("a registered user likes a post",
                        LikeDecisions.like(new LikeCommand("p1", "ann", NOW), true, true),
                        appends(LikeEvent.LIKED, new PostLiked("p1", "ann", NOW))),
                rule("a post that does not exist cannot be liked",
                        LikeDecisions.like(new LikeCommand("p1", "ann", NOW), false, true),
                        notFound("post p1 does not exist")),
                rule("a user who has not registered is told to register before liking",
                        LikeDecisions.like(new LikeCommand("p1", "ann", NOW), true, false),
                        conflict("register your profile with PUT /users/ann before liking posts")),
                rule("a user unlikes a post (whether the read model shows their like or not: the projector decides)",
                        LikeDecisions.unlike(new LikeCommand("p1", "ann", NOW), true),
                        appends(LikeEvent.UNLIKED, new PostUnliked("p1", "ann", NOW))),
                rule("a post that does not exist cannot be unliked",
                        LikeDecisions.unlike(new LikeCommand("p1", "ann", NOW), false),
                        notFound("post p1 does not exist")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("projectionRules")
    void theProjectorPlansByTheRule(String sentence, WritePlan decided, WritePlan expected) {
        assertEquals(expected.rejection(), decided.rejection(), sentence);
        assertEquals(expected.root(), decided.root(), sentence);
        assertEquals(expected.deletesRoot(), decided.deletesRoot(), sentence);
        assertEquals(expected.steps(), decided.steps(), sentence);
    }

    static Stream<Arguments> projectionRules() {
        WritePlan firstLike = WritePlan.onRoot(ItemUpdate.of(LIKE, KeyPlan.LIKE.name())
                        .set(Index.GSI2.pkAttribute(), "LIKER#ann")
                        .set(Index.GSI2.skAttribute(), LIKED_AT + "#p1")
                        .set(Attributes.POST_ID, "p1")
                        .set(Attributes.USER_ID, "ann")
                        .set(Attributes.LIKED, true)
                        .set(Attributes.CREATED_AT, LIKED_AT)
                        .set(Attributes.UNLIKE_COUNTED, null))
                .then(new Count(SHARD, KeyPlan.POST_COUNTER, Attributes.LIKE_COUNT, 1, LIKE,
                        Attributes.LIKE_COUNTED))
                .then(new OrphanCheck(TOMBSTONE, List.of(LIKE, SHARD)));
        return Stream.of(
                Arguments.of("a first like writes the like with its entry in the user's likes, counts +1 once on the "
                        + "user's shard, then looks again at the post's tombstone",
                        PROJECTOR.decide(LIKES, new Reads(Optional.empty(), Map.of())), firstLike),
                Arguments.of("liking again after an unlike is a like like the first (its root write clears the "
                        + "unlike's counted flag, so the next unlike counts)",
                        PROJECTOR.decide(LIKES, new Reads(like(false), Map.of())), firstLike),

                Arguments.of("a like of a post one likes already (two PUTs raced) only records itself, and looks at "
                        + "the tombstone: the recording may make the item again after the post's deletion took it",
                        PROJECTOR.decide(LIKES, new Reads(like(true), Map.of())),
                        WritePlan.onRoot().then(new OrphanCheck(TOMBSTONE, List.of(LIKE)))),
                Arguments.of("an unlike leaves the user's likes (the sparse gsi2 entry goes), clears the like's counted "
                        + "flag and counts -1 once on the same shard",
                        PROJECTOR.decide(UNLIKES, new Reads(like(true), Map.of())),
                        WritePlan.onRoot(ItemUpdate.of(LIKE)
                                        .set(Attributes.LIKED, false)
                                        .set(Index.GSI2.pkAttribute(), null)
                                        .set(Index.GSI2.skAttribute(), null)
                                        .set(Attributes.LIKE_COUNTED, null))
                                .then(new Count(SHARD, KeyPlan.POST_COUNTER, Attributes.LIKE_COUNT, -1, LIKE,
                                        Attributes.UNLIKE_COUNTED))
                                .then(new OrphanCheck(TOMBSTONE, List.of(LIKE, SHARD)))),
                Arguments.of("an unlike of a like already unliked only records itself, and looks at the tombstone",
                        PROJECTOR.decide(UNLIKES, new Reads(like(false), Map.of())),
                        WritePlan.onRoot().then(new OrphanCheck(TOMBSTONE, List.of(LIKE)))),
                Arguments.of("an unlike whose like went with its post records itself on an item that says so, which "
                        + "its orphan check takes: no rejection the live projector and a replay could disagree on",
                        PROJECTOR.decide(UNLIKES, new Reads(Optional.empty(), Map.of())),
                        WritePlan.onRoot(ItemUpdate.of(LIKE, KeyPlan.LIKE.name()).set(Attributes.POST_ID, "p1")
                                        .set(Attributes.USER_ID, "ann").set(Attributes.LIKED, false))
                                .then(new OrphanCheck(TOMBSTONE, List.of(LIKE)))));
    }

    @Test
    void aLikeIsItsOwnStreamAndReadsNothingElse() {
        assertEquals(StreamTarget.upserting(KeyPlan.LIKE_STREAM, "p1", "ann"), PROJECTOR.target(LIKES));
        assertEquals(StreamTarget.upserting(KeyPlan.LIKE_STREAM, "p1", "ann"), PROJECTOR.target(UNLIKES),
                "an unlike is not refused when its post's deletion took its like");
        assertEquals(List.of(), PROJECTOR.needs(LIKES), "not its post: a replay may bring the like before or after it");
        assertEquals(List.of(), PROJECTOR.needs(UNLIKES));
        assertEquals("ann", LIKES.aggregateId(), "keyed by the user: one post's likes are many keys");
    }

    @Test
    void aDeletedPostTakesItsLikesAndItsCounterShards() {
        assertEquals(List.of("LIKES#p1 BEGINS_WITH USER#", "POST#p1 BEGINS_WITH COUNT#"),
                Stream.of(KeyPlan.LIKE, KeyPlan.POST_COUNTER).map(type -> {
                    assertEquals(Optional.of(KeyPlan.POST), type.deletedWith(), type + " goes with its post");
                    KeyQuery query = type.collectionUnder(Map.of(Attributes.POST_ID, "p1"));
                    return query.partition() + " " + query.sortKey().kind() + " " + query.sortKey().from();
                }).toList());
    }

    private static Optional<Map<String, AttributeValue>> like(boolean liked) {
        return Optional.of(Map.of(Attributes.LIKED, AttributeValue.fromBool(liked)));
    }
}
