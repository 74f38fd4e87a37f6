package dev.cabinet.folder;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class FolderApiTest {

    static String createFolder(String owner, String name, String parentId) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        if (parentId != null) {
            body.put("parentId", parentId);
        }
        return as(owner).body(body).post("/folders").then().statusCode(202)
                .body("type", equalTo("cabinet.folder.created.v1"))
                .extract().path("id");
    }

    @Test
    void foldersKnowTheirPathAndListTheirSubfoldersToTheEnd() {
        String owner = newUserId();
        String root = createFolder(owner, "Reports", null);
        awaitOk("/folders/" + root).body("path", equalTo("/Reports")).body("ancestorIds", hasSize(0))
                .body("ownerId", equalTo(owner));
        String year = createFolder(owner, "2026", root);
        awaitOk("/folders/" + year).body("path", equalTo("/Reports/2026")).body("parentId", equalTo(root))
                .body("ancestorIds", equalTo(List.of(root)));
        List<String> months = new ArrayList<>();
        for (int m = 1; m <= 5; m++) {
            months.add(createFolder(owner, "Month " + m, year));
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(5, allPages("/folders/" + year + "/folders", 100)
                .size()));
        assertEquals(months, allPages("/folders/" + year + "/folders", 2, "id"));
        awaitOk("/folders/" + months.get(4)).body("path", equalTo("/Reports/2026/Month 5"))
                .body("ancestorIds", equalTo(List.of(root, year)));
    }

    @Test
    void uploadingAFileAnswersAPresignedPutAndItsMetadataIsListedNewestFirst() {
        String owner = newUserId();
        String folder = createFolder(owner, "Docs", null);
        awaitOk("/folders/" + folder);

        String fileId = as(owner).body(Map.of("name", "report.pdf", "size", 1024, "contentType", "application/pdf"))
                .post("/folders/" + folder + "/files").then().statusCode(202)
                .header("Location", containsString("/files/"))
                .body("type", equalTo("cabinet.file.uploaded.v1"))
                .body("upload.method", equalTo("PUT"))
                .body("upload.url", startsWith("http://127.0.0.1:"))
                .body("upload.url", containsString("/cabinet-files/folders/"))
                .body("upload.url", containsString("X-Amz-Signature="))
                .body("upload.url", containsString("folders/" + folder + "/files/"))
                .body("upload.headers.content-type", equalTo("application/pdf"))
                .body("upload.headers.content-length", equalTo("1024"))
                .body("upload.expiresAt", notNullValue())
                .extract().path("id");
        awaitOk("/files/" + fileId)
                .body("name", equalTo("report.pdf"))
                .body("folderId", equalTo(folder))
                .body("size", equalTo(1024))
                .body("contentType", equalTo("application/pdf"))
                .body("contentUrl", equalTo("s3://cabinet-files/folders/" + folder + "/files/" + fileId));

        List<String> uploaded = new ArrayList<>(List.of(fileId));
        for (int i = 0; i < 4; i++) {
            uploaded.add(as(owner).body(Map.of("name", "notes-" + i + ".txt", "size", i, "contentType", "text/plain"))
                    .post("/folders/" + folder + "/files").then().statusCode(202).extract().path("id"));
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(5,
                allPages("/folders/" + folder + "/files", 100).size()));
        Collections.reverse(uploaded);
        assertEquals(uploaded, allPages("/folders/" + folder + "/files", 2, "id"));
    }

    @Test
    void onlyTheOwnerChangesAFolderAndDeletesItsFiles() {
        String owner = newUserId();
        String other = newUserId();
        String folder = createFolder(owner, "Private", null);
        String theirs = createFolder(other, "Theirs", null);
        awaitOk("/folders/" + folder);
        awaitOk("/folders/" + theirs);

        as(other).body(Map.of("name", "Sub", "parentId", folder)).post("/folders").then()
                .statusCode(403).contentType("application/problem+json");
        as(other).body(Map.of("name", "Renamed")).patch("/folders/" + folder).then().statusCode(403);
        as(owner).body(Map.of("parentId", theirs)).patch("/folders/" + folder).then().statusCode(403);
        as(other).body(Map.of("name", "x", "size", 1, "contentType", "text/plain")).post("/folders/" + folder + "/files")
                .then().statusCode(403);
        String fileId = as(owner).body(Map.of("name", "x", "size", 1, "contentType", "text/plain"))
                .post("/folders/" + folder + "/files").then().statusCode(202).extract().path("id");
        awaitOk("/files/" + fileId);
        as(other).delete("/files/" + fileId).then().statusCode(403);
        given().delete("/files/" + fileId).then().statusCode(401);

        as(owner).delete("/files/" + fileId).then().statusCode(202).body("type", equalTo("cabinet.file.deleted.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/files/" + fileId).then().statusCode(404);
            given().get("/folders/" + folder + "/files").then().body("items", hasSize(0));
        });
    }

    /**
     * A move to the folder it is in is accepted (the API's read may lag a move away from it: moved, then moved back) and
     * applied without change: the folder stays, listed once.
     */
    @Test
    void aMoveToTheFolderItIsInIsAppliedWithoutChange() {
        String owner = newUserId();
        String parent = createFolder(owner, "Parent", null);
        awaitOk("/folders/" + parent);
        String child = createFolder(owner, "Child", parent);
        awaitOk("/folders/" + child);
        as(owner).header("Prefer", "wait=" + PROJECTION_WAIT.toSeconds()).body(Map.of("parentId", parent))
                .patch("/folders/" + child).then().statusCode(200).body("outcome", equalTo("applied"));
        given().get("/folders/" + child).then().body("parentId", equalTo(parent));
        assertEquals(List.of(child), allPages("/folders/" + parent + "/folders", 100, "id"));
    }

    @Test
    void badFolderAndFileRequestsAreRefused() {
        String owner = newUserId();
        String folder = createFolder(owner, "Checked", null);
        awaitOk("/folders/" + folder);
        as(owner).body(Map.of("name", "a/b")).post("/folders").then().statusCode(400).body("errors.field", hasItem("name"));
        as(owner).body(Map.of("name", "Orphan", "parentId", newUserId())).post("/folders").then().statusCode(404);
        as(owner).body(Map.of("name", "Both", "parentId", folder)).patch("/folders/" + folder).then().statusCode(400);
        as(owner).body(Map.of("parentId", folder)).patch("/folders/" + folder).then().statusCode(409);
        as(owner).body(Map.of("name", "f", "size", -1, "contentType", "text/plain")).post("/folders/" + folder + "/files")
                .then().statusCode(400).body("errors.field", hasItem("size"));
        as(owner).body(Map.of("name", "f", "size", 6_000_000_000L, "contentType", "text/plain"))
                .post("/folders/" + folder + "/files").then().statusCode(400).body("errors.field", hasItem("size"));
        as(owner).body(Map.of("name", "f", "size", 1, "contentType", "not a type")).post("/folders/" + folder + "/files")
                .then().statusCode(400).body("errors.field", hasItem("contentType"));
        // Types S3 would store otherwise than declared (a trailing space dropped): the upload could never be confirmed.
        for (String type : new String[] { "text/csv; charset=utf-8 ", "text/csv;", "text/plain; name=\u00e9" }) {
            as(owner).body(Map.of("name", "f", "size", 1, "contentType", type)).post("/folders/" + folder + "/files")
                    .then().statusCode(400).body("errors.field", hasItem("contentType"));
        }
        given().get("/folders/" + newUserId()).then().statusCode(404).contentType("application/problem+json");
        given().get("/files/" + newUserId()).then().statusCode(404);
    }
}
