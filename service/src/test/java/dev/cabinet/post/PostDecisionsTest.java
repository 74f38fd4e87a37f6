package dev.cabinet.post;

import static dev.cabinet.decision.Rules.NOW;
import static dev.cabinet.decision.Rules.appends;
import static dev.cabinet.decision.Rules.conflict;
import static dev.cabinet.decision.Rules.forbidden;
import static dev.cabinet.decision.Rules.notFound;
import static dev.cabinet.decision.Rules.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.decision.Decision;
import dev.cabinet.post.CommentDecisions.AddComment;
import dev.cabinet.post.CommentDecisions.DeleteComment;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.post.PostDecisions.CreatePost;
import dev.cabinet.post.PostDecisions.DeletePost;
import dev.cabinet.post.PostDecisions.EditPost;
import dev.cabinet.post.PostDecisions.PublishPost;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;

/** The rules of post and comment commands, given the views a resource reads; no Quarkus, no table. */
class PostDecisionsTest {

    private static final String EARLIER = "2026-05-01T08:00:00.000Z";
    private static final PostView DRAFT = post("ada", PostStatus.DRAFT);
    private static final PostView PUBLISHED = post("ada", PostStatus.PUBLISHED);
    private static final CommentView BOBS_COMMENT = new CommentView("c1", "p1", "bob", "Bob", null, "Nice", EARLIER);

    @ParameterizedTest(name = "{0}")
    @MethodSource({ "postRules", "commentRules" })
    void followsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> postRules() {
        NewPostRequest hello = new NewPostRequest("Hello", "First.");
        PostChangeRequest retitle = new PostChangeRequest("Hello again", null);
        return Stream.of(
                rule("a registered user writes a post, as a draft",
                        PostDecisions.create(new CreatePost("p1", "ada", hello, NOW), true),
                        appends(PostEvent.CREATED, new PostCreated("p1", "ada", "Hello", "First.", NOW))),
                rule("a user who has not registered is told to register before writing posts",
                        PostDecisions.create(new CreatePost("p1", "ada", hello, NOW), false),
                        conflict("register your profile with PUT /users/ada before writing posts")),
                rule("the author edits their post, changing only the fields given",
                        PostDecisions.edit(new EditPost("p1", "ada", retitle), DRAFT),
                        appends(PostEvent.EDITED, new PostEdited("p1", "Hello again", null))),
                rule("only the author may edit a post",
                        PostDecisions.edit(new EditPost("p1", "bob", retitle), DRAFT),
                        forbidden("only the author of post p1 may change it")),
                rule("a post that does not exist cannot be edited",
                        PostDecisions.edit(new EditPost("p1", "ada", retitle), null),
                        notFound("post p1 does not exist")),
                rule("the author publishes a draft",
                        PostDecisions.publish(new PublishPost("p1", "ada", NOW), DRAFT),
                        appends(PostEvent.PUBLISHED, new PostPublished("p1", NOW))),
                rule("publishing a published post is a conflict",
                        PostDecisions.publish(new PublishPost("p1", "ada", NOW), PUBLISHED),
                        conflict("post p1 is already published")),
                rule("only the author may publish a post, even one already published",
                        PostDecisions.publish(new PublishPost("p1", "bob", NOW), PUBLISHED),
                        forbidden("only the author of post p1 may change it")),
                rule("the author deletes their post",
                        PostDecisions.delete(new DeletePost("p1", "ada", NOW), PUBLISHED),
                        appends(PostEvent.DELETED, new PostDeleted("p1", NOW))),
                rule("only the author may delete a post",
                        PostDecisions.delete(new DeletePost("p1", "bob", NOW), PUBLISHED),
                        forbidden("only the author of post p1 may change it")),
                rule("a post that does not exist cannot be deleted",
                        PostDecisions.delete(new DeletePost("p1", "ada", NOW), null),
                        notFound("post p1 does not exist")));
    }

    static Stream<Arguments> commentRules() {
        return Stream.of(
                rule("a registered user comments on a post that exists",
                        CommentDecisions.add(new AddComment("p1", "c1", "bob", "Nice", NOW), PUBLISHED, true),
                        appends(CommentEvent.ADDED, new CommentAdded("p1", "c1", "bob", "Nice", NOW))),
                rule("a draft takes comments too: only the feed is for published posts",
                        CommentDecisions.add(new AddComment("p1", "c1", "bob", "Nice", NOW), DRAFT, true),
                        appends(CommentEvent.ADDED, new CommentAdded("p1", "c1", "bob", "Nice", NOW))),
                rule("a user who has not registered is told to register before commenting, whatever the post",
                        CommentDecisions.add(new AddComment("p1", "c1", "bob", "Nice", NOW), null, false),
                        conflict("register your profile with PUT /users/bob before commenting")),
                rule("a comment on a post that does not exist is not found",
                        CommentDecisions.add(new AddComment("p1", "c1", "bob", "Nice", NOW), null, true),
                        notFound("post p1 does not exist")),
                rule("a comment's author deletes it, with the comment's own creation time",
                        CommentDecisions.delete(new DeleteComment("p1", "c1", "bob"), BOBS_COMMENT, PUBLISHED),
                        appends(CommentEvent.DELETED, new CommentDeleted("p1", "c1", EARLIER))),
                rule("a comment's author deletes it even once the post is gone",
                        CommentDecisions.delete(new DeleteComment("p1", "c1", "bob"), BOBS_COMMENT, null),
                        appends(CommentEvent.DELETED, new CommentDeleted("p1", "c1", EARLIER))),
                rule("the post's author deletes someone else's comment on it",
                        CommentDecisions.delete(new DeleteComment("p1", "c1", "ada"), BOBS_COMMENT, PUBLISHED),
                        appends(CommentEvent.DELETED, new CommentDeleted("p1", "c1", EARLIER))),
                rule("anyone else may not delete a comment",
                        CommentDecisions.delete(new DeleteComment("p1", "c1", "eve"), BOBS_COMMENT, PUBLISHED),
                        forbidden("only the comment's author or the post's author may delete comment c1")),
                rule("a comment that does not exist cannot be deleted",
                        CommentDecisions.delete(new DeleteComment("p1", "c1", "bob"), null, PUBLISHED),
                        notFound("comment c1 does not exist")),
                rule("a comment is not reached through another post, not even by that post's author",
                        CommentDecisions.delete(new DeleteComment("p2", "c1", "ada"), BOBS_COMMENT,
                                post("ada", PostStatus.DRAFT)),
                        notFound("comment c1 does not exist")));
    }

    private static PostView post(String author, String status) {
        return new PostView("p1", author, "Ada", "Hello", "First.", status, EARLIER,
                PostStatus.PUBLISHED.equals(status) ? EARLIER : null, 0, 0, null, null);
    }
}
