package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Appended;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.folder.FileEvent;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.post.LikeEvent;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.LikeEvent.PostUnliked;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableReader;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A replay of the log (a rebuild) reads the partitions side by side, so an event that refers to another aggregate can
 * come before the event that creates it (a like, keyed by its user, before its post's creation, keyed by the post), or
 * after the event that deleted it although the live projector applied it before. The replay must still end where the
 * live projector did. (A move under a folder not there yet is still refused: docs/design.md.)
 */
@QuarkusTest
class ReplayOrderTest {

    @Inject
    EventLog log;

    @Inject
    TableReader table;

    @Test
    void aLikeReplayedBeforeItsPostsCreationCountsOnceThePostExists() {
        String author = newUserId();
        register(author, "Replayed");
        String liker = newUserId();
        String post = Ids.newId();
        String at = Timestamps.format(Instant.now());
        log.append(LikeEvent.LIKED, new PostLiked(post, liker, at), liker).await().atMost(Duration.ofSeconds(10));
        // The like's outcome is settled before the post exists: it is not waiting for the post to appear.
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + liker + "/likes").then()
                .statusCode(200).body("items.postId", hasItem(post)));

        log.append(PostEvent.CREATED, new PostCreated(post, author, "Late", "created after its like", at), author)
                .await().atMost(Duration.ofSeconds(10));
        awaitOk("/posts/" + post).body("likeCount", equalTo(1)).body("authorName", equalTo("Replayed"));
    }

    /**
     * A post replayed before its author's registration (the user's topic is read beside the posts'): the registration's
     * walk, made when its batch ends, gives the post the author's name.
     */
    @Test
    void aPostReplayedBeforeItsAuthorsRegistrationTakesTheNameFromIt() {
        String author = newUserId();
        String post = Ids.newId();
        String at = Timestamps.format(Instant.now());
        log.append(PostEvent.CREATED, new PostCreated(post, author, "Early", "before its author registered", at),
                author).await().atMost(Duration.ofSeconds(10));
        awaitOk("/posts/" + post).body("title", equalTo("Early"));

        log.append(UserEvent.REGISTERED, new UserRegistered(author, "Registered late", author + "@example.org", null,
                at), author).await().atMost(Duration.ofSeconds(10));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + post).then().statusCode(200)
                .body("authorName", equalTo("Registered late")));
    }

    /**
     * A like replayed after its post's deletion, although the live projector applied it before: it is applied (no
     * rejection, as there was none live) and its orphan check takes it, as the deletion's cascade did live.
     */
    @Test
    void aLikeReplayedAfterItsPostsDeletionLeavesNothingAndNoRejection() {
        String author = newUserId();
        register(author, "Deleted soon");
        String post = createPost(author, "Gone before its like");
        as(author).delete("/posts/" + post).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/posts/" + post).statusCode() == 404);

        String liker = newUserId();
        Appended like = log.append(LikeEvent.LIKED, new PostLiked(post, liker, Timestamps.format(Instant.now())),
                liker).await().atMost(Duration.ofSeconds(10));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/commands/" + like.eventId()).then()
                .statusCode(200).body("status", equalTo("applied")));
        await().atMost(PROJECTION_WAIT).until(() -> table.get(KeyPlan.LIKE.key(post, liker))
                .await().atMost(Duration.ofSeconds(10)).isEmpty());
        given().get("/users/" + liker + "/likes").then().statusCode(200).body("items", hasSize(0));
    }

    /**
     * An unlike applied after its post's deletion took its like (live, it came after the deletion; a replay may bring
     * it before, and apply it): it is applied here too, its item taken by its orphan check, and no rejection recorded
     * that a replay would not record.
     */
    @Test
    void anUnlikeAppliedAfterItsPostsDeletionLeavesNothingAndNoRejection() {
        String author = newUserId();
        register(author, "Unliked");
        String post = createPost(author, "Liked, deleted, unliked");
        String liker = newUserId();
        register(liker, "Liker");
        applied(waiting(liker).put("/posts/" + post + "/likes"));
        as(author).delete("/posts/" + post).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> table.get(KeyPlan.LIKE.key(post, liker))
                .await().atMost(Duration.ofSeconds(10)).isEmpty());

        Appended unlike = log.append(LikeEvent.UNLIKED, new PostUnliked(post, liker,
                Timestamps.format(Instant.now())), liker).await().atMost(Duration.ofSeconds(10));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/commands/" + unlike.eventId()).then()
                .statusCode(200).body("status", equalTo("applied")));
        await().atMost(PROJECTION_WAIT).until(() -> table.get(KeyPlan.LIKE.key(post, liker))
                .await().atMost(Duration.ofSeconds(10)).isEmpty());
    }

    /**
     * A subfolder (keyed by itself) replayed before its parent's creation (keyed by the parent), with a subfolder of its
     * own: once the parent exists, both have the paths and ancestors the live projector gave them, and the parent lists
     * the subfolder.
     */
    @Test
    void aSubfolderReplayedBeforeItsParentsCreationTakesItsPathFromTheParent() {
        String owner = newUserId();
        String parent = Ids.newId();
        String child = Ids.newId();
        String grandchild = Ids.newId();
        String at = Timestamps.format(Instant.now());
        log.append(FolderEvent.CREATED, new FolderCreated(child, "Child", parent, owner, at), owner)
                .await().atMost(Duration.ofSeconds(10));
        log.append(FolderEvent.CREATED, new FolderCreated(grandchild, "Grandchild", child, owner, at), owner)
                .await().atMost(Duration.ofSeconds(10));
        // The two are on different partitions: the grandchild may come first, under its own name, until the child's
        // creation passes its path down when its batch ends.
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/folders/" + grandchild).then()
                .statusCode(200).body("path", equalTo("/Child/Grandchild")));

        log.append(FolderEvent.CREATED, new FolderCreated(parent, "Parent", null, owner, at), owner)
                .await().atMost(Duration.ofSeconds(10));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/folders/" + grandchild).then()
                .statusCode(200).body("path", equalTo("/Parent/Child/Grandchild"))
                .body("ancestorIds", equalTo(List.of(parent, child))));
        given().get("/folders/" + child).then().body("path", equalTo("/Parent/Child"))
                .body("ancestorIds", equalTo(List.of(parent)));
        given().get("/folders/" + parent + "/folders").then().statusCode(200).body("items.id", hasItem(child));
    }

    /** An upload (keyed by its file) replayed before its folder's creation (keyed by the folder) is listed there. */
    @Test
    void anUploadReplayedBeforeItsFoldersCreationIsListedInTheFolder() {
        String owner = newUserId();
        String folder = Ids.newId();
        String file = Ids.newId();
        String at = Timestamps.format(Instant.now());
        log.append(FileEvent.UPLOADED, new FileUploaded(file, folder, "early.txt", 5, "text/plain",
                "s3://cabinet-files/uploads/" + file, at, owner), owner).await().atMost(Duration.ofSeconds(10));
        awaitOk("/files/" + file).body("folderId", equalTo(folder));

        log.append(FolderEvent.CREATED, new FolderCreated(folder, "Late", null, owner, at), owner)
                .await().atMost(Duration.ofSeconds(10));
        awaitOk("/folders/" + folder).body("name", equalTo("Late"));
        given().get("/folders/" + folder + "/files").then().statusCode(200).body("items.id", hasItem(file));
    }
}
