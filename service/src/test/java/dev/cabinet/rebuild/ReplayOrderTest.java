package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.EventLog;
import dev.cabinet.folder.FileEvent;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.post.LikeEvent;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A replay of the log (a rebuild) reads the partitions side by side, so an event that refers to another aggregate can
 * come before the event that creates it: a like (keyed by its user) before its post's creation (keyed by the post).
 * The API never appends such a like, but the replay must still end where the live projector did. (A subfolder replayed
 * before its parent is still refused: its path comes from the parent; see docs/design.md.)
 */
@QuarkusTest
class ReplayOrderTest {

    @Inject
    EventLog log;

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
