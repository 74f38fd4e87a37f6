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
import dev.cabinet.decision.Refusal;
import dev.cabinet.post.BookmarkDecisions.BookmarkCommand;
import dev.cabinet.post.BookmarkDecisions.Seen;
import dev.cabinet.post.BookmarkEvent.BookmarkRemoved;
import dev.cabinet.post.BookmarkEvent.PostBookmarked;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.OrphanCheck;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The rules of bookmarks, as the commands decide them and as the projector plans them; no Quarkus, no table. */
class BookmarkDecisionsTest {

    private static final BookmarkProjector PROJECTOR = new BookmarkProjector();
    private static final String AT = "2026-06-01T12:00:00.000Z";
    private static final Key BOOKMARK = KeyPlan.BOOKMARK.key("p1", "ann");
    private static final Key TOMBSTONE = KeyPlan.POST_TOMBSTONE.key("p1");
    private static final PostBookmarked SAVES = new PostBookmarked("p1", "ann", AT);
    private static final BookmarkRemoved REMOVES = new BookmarkRemoved("p1", "ann", AT);

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandRules")
    void theCommandFollowsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> commandRules() {
        BookmarkCommand command = new BookmarkCommand("p1", "ann", NOW);
        return Stream.of(
                rule("a registered user bookmarks a post (saved already or not: the projector decides)",
                        BookmarkDecisions.save(command, true, true),
                        appends(BookmarkEvent.BOOKMARKED, new PostBookmarked("p1", "ann", NOW))),
                rule("a post that does not exist cannot be bookmarked",
                        BookmarkDecisions.save(command, false, true),
                        notFound("post p1 does not exist")),
                rule("a user who has not registered is told to register before bookmarking",
                        BookmarkDecisions.save(command, true, false),
                        conflict("register your profile with PUT /users/ann before bookmarking posts")),
                rule("a user removes a bookmark of an existing post, whether the read model shows it or not",
                        BookmarkDecisions.remove(command, new Seen(true, false)),
                        appends(BookmarkEvent.REMOVED, new BookmarkRemoved("p1", "ann", NOW))),
                rule("a bookmark of a deleted post still seen is removed",
                        BookmarkDecisions.remove(command, new Seen(false, true)),
                        appends(BookmarkEvent.REMOVED, new BookmarkRemoved("p1", "ann", NOW))),
                rule("removing a bookmark of a deleted post that took it changes nothing: no event for nothing",
                        BookmarkDecisions.remove(command, new Seen(false, false)), Decision.unchanged()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("projectionRules")
    void theProjectorPlansByTheRule(String sentence, WritePlan decided, WritePlan expected) {
        assertEquals(expected.rejection(), decided.rejection(), sentence);
        assertEquals(expected.root(), decided.root(), sentence);
        assertEquals(expected.steps(), decided.steps(), sentence);
    }

    static Stream<Arguments> projectionRules() {
        WritePlan saved = WritePlan.onRoot(ItemUpdate.of(BOOKMARK, KeyPlan.BOOKMARK.name())
                        .set(Index.GSI2.pkAttribute(), "BOOKMARKER#ann")
                        .set(Index.GSI2.skAttribute(), AT + "#p1")
                        .set(Attributes.POST_ID, "p1")
                        .set(Attributes.USER_ID, "ann")
                        .set(Attributes.BOOKMARKED, true)
                        .set(Attributes.CREATED_AT, AT))
                .then(new OrphanCheck(TOMBSTONE, List.of(BOOKMARK)));
        return Stream.of(
                Arguments.of("a first bookmark writes it with its entry in the user's bookmarks, then looks at the "
                        + "post's tombstone (a post deleted before or meanwhile takes it)", PROJECTOR.decide(SAVES, new Reads(Optional.empty(), Map.of())), saved),
                Arguments.of("bookmarking again after a removal is a first bookmark, newest again",
                        PROJECTOR.decide(SAVES, new Reads(bookmark(false), Map.of())), saved),

                Arguments.of("a bookmark one has already (two PUTs raced) only records itself, and looks at the "
                        + "tombstone: the recording may make the item again after the post's deletion took it",
                        PROJECTOR.decide(SAVES, new Reads(bookmark(true), Map.of())),
                        WritePlan.onRoot().then(new OrphanCheck(TOMBSTONE, List.of(BOOKMARK)))),
                Arguments.of("a removal drops the sparse gsi2 entry and keeps the item (its stream's version), and "
                        + "looks at the tombstone as every write of the item does",
                        PROJECTOR.decide(REMOVES, new Reads(bookmark(true), Map.of())),
                        WritePlan.onRoot(ItemUpdate.of(BOOKMARK)
                                .set(Attributes.BOOKMARKED, false)
                                .set(Index.GSI2.pkAttribute(), null)
                                .set(Index.GSI2.skAttribute(), null))
                                .then(new OrphanCheck(TOMBSTONE, List.of(BOOKMARK)))),
                Arguments.of("a removal of a bookmark removed already only records itself, and looks at the tombstone",
                        PROJECTOR.decide(REMOVES, new Reads(bookmark(false), Map.of())),
                        WritePlan.onRoot().then(new OrphanCheck(TOMBSTONE, List.of(BOOKMARK)))),
                Arguments.of("a removal whose bookmark went with its post records itself on an item that says so, "
                        + "which its orphan check takes",
                        PROJECTOR.decide(REMOVES, new Reads(Optional.empty(), Map.of())),
                        WritePlan.onRoot(ItemUpdate.of(BOOKMARK, KeyPlan.BOOKMARK.name())
                                        .set(Attributes.POST_ID, "p1").set(Attributes.USER_ID, "ann")
                                        .set(Attributes.BOOKMARKED, false))
                                .then(new OrphanCheck(TOMBSTONE, List.of(BOOKMARK)))));
    }

    @Test
    void onlyTheUserReadsTheirBookmarks() {
        assertEquals(Optional.empty(), BookmarkDecisions.read("ann", "ann"));
        assertEquals(Optional.of(Refusal.Kind.FORBIDDEN),
                BookmarkDecisions.read("bob", "ann").map(Refusal::kind), "another user's");
    }

    @Test
    void aBookmarkIsItsOwnStreamAndReadsNothingElse() {
        assertEquals(StreamTarget.upserting(KeyPlan.BOOKMARK_STREAM, "p1", "ann"), PROJECTOR.target(SAVES));
        assertEquals(StreamTarget.upserting(KeyPlan.BOOKMARK_STREAM, "p1", "ann"), PROJECTOR.target(REMOVES));
        assertEquals(List.of(), PROJECTOR.needs(SAVES), "not its post: a replay may bring it before or after it");
        assertEquals(List.of(), PROJECTOR.needs(REMOVES));
        assertEquals("ann", SAVES.aggregateId(), "keyed by the user");
        assertEquals(Optional.of(KeyPlan.POST), KeyPlan.BOOKMARK.deletedWith(), "bookmarks go with their post");
        KeyQuery bookmarks = KeyPlan.BOOKMARK.collectionUnder(Map.of(Attributes.POST_ID, "p1"));
        assertEquals("BOOKMARKS#p1 BEGINS_WITH USER#", bookmarks.partition() + " " + bookmarks.sortKey().kind() + " "
                + bookmarks.sortKey().from(), "a deleted post's bookmarks are one partition");
    }

    private static Optional<Map<String, AttributeValue>> bookmark(boolean bookmarked) {
        return Optional.of(Map.of(Attributes.BOOKMARKED, AttributeValue.fromBool(bookmarked)));
    }
}
