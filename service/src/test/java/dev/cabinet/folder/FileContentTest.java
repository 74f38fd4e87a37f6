package dev.cabinet.folder;

import static dev.cabinet.folder.FolderApiTest.createFolder;
import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A file's content through the real wire: the client PUTs to the presigned URL on the local S3 (s3proxy, started by the
 * Dev Services, which checks signatures as Amazon S3 does), confirms, downloads through the 303, and a deletion removes
 * the object, also across an outage of S3. What the upload URL binds (the key, the length, the type, its expiry) is
 * refused by the store itself when changed.
 */
@QuarkusTest
class FileContentTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private static final String STOP = "dev.cabinet.devservices.s3proxy.stop";
    private static final String START = "dev.cabinet.devservices.s3proxy.start";

    @Inject
    S3Presigner presigner;

    @Inject
    MeterRegistry meters;


    /** A folder of a new owner, and a file in it declared as {@code bytes} of {@code contentType}: its 202 answer. */
    private record Upload(String owner, String folderId, String fileId, String url, Map<String, String> headers) {
    }

    private static Upload declare(String name, int size, String contentType) {
        String owner = newUserId();
        String folder = createFolder(owner, "Files", null);
        awaitOk("/folders/" + folder);
        JsonPath answer = as(owner).body(Map.of("name", name, "size", size, "contentType", contentType))
                .post("/folders/" + folder + "/files").then().statusCode(202).extract().jsonPath();
        return new Upload(owner, folder, answer.getString("id"), answer.getString("upload.url"),
                answer.getMap("upload.headers", String.class, String.class));
    }

    /** PUTs the bytes as a plain HTTP client would: the listed headers, the length the body has. */
    private static int put(String url, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).PUT(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach((name, value) -> {
            if (!name.equalsIgnoreCase("content-length")) {   // the client sets it from the body, as curl -T does
                request.header(name, value);
            }
        });
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String key(Upload upload) {
        return "folders/" + upload.folderId() + "/files/" + upload.fileId();
    }

    /** What the local S3 holds at the file's key, read through a URL of the test's own presigning. */
    private int objectStatus(Upload upload) throws Exception {
        String url = presigner.presignGetObject(request -> request.signatureDuration(Duration.ofMinutes(5))
                .getObjectRequest(get -> get.bucket("cabinet-files").key(key(upload)))).url().toString();
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private Upload stored(byte[] content) throws Exception {
        Upload upload = declare("report.pdf", content.length, "application/pdf");
        assertEquals(200, put(upload.url(), upload.headers(), content));
        awaitOk("/files/" + upload.fileId());
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(202)
                .body("type", equalTo("cabinet.file.stored.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/files/" + upload.fileId()).then()
                .body("status", equalTo("stored")));
        return upload;
    }

    /**
     * {@code Prefer: wait} holds a file's 202 until the file can be read, as on every command, and the answer it ends
     * with keeps the upload link, without which the file could never get its content.
     */
    @Test
    void anUploadAnsweredAfterWaitingIsReadableAndKeepsItsLink() throws Exception {
        String owner = newUserId();
        String folder = createFolder(owner, "Waited", null);
        awaitOk("/folders/" + folder);
        byte[] content = "hello".getBytes(StandardCharsets.US_ASCII);
        JsonPath answer = as(owner).header("Prefer", "wait=" + PROJECTION_WAIT.toSeconds())
                .body(Map.of("name", "hello.txt", "size", content.length, "contentType", "text/plain"))
                .post("/folders/" + folder + "/files").then().statusCode(200)
                .header("Preference-Applied", "wait=" + PROJECTION_WAIT.toSeconds())
                .body("outcome", equalTo("applied")).body("$", not(hasKey("more"))).extract().jsonPath();
        String fileId = answer.getString("id");
        given().get("/files/" + fileId).then().statusCode(200).body("status", equalTo("pending"));
        assertEquals(200, put(answer.getString("upload.url"),
                answer.getMap("upload.headers", String.class, String.class), content));
        as(owner).post("/files/" + fileId + "/complete").then().statusCode(202);
    }

    /**
     * The owner of a pending file gets a new upload link (the first expires, or ends with the credentials that signed
     * it): the content PUT to it is confirmed; a stored file's content does not change, and nobody else gets one.
     */
    @Test
    void theOwnerOfAPendingFileGetsANewUploadLinkThatTakesItsContent() throws Exception {
        byte[] content = "new link".getBytes(StandardCharsets.UTF_8);
        Upload upload = declare("notes.txt", content.length, "text/plain");
        awaitOk("/files/" + upload.fileId());
        as(newUserId()).get("/files/" + upload.fileId() + "/upload").then().statusCode(403);
        as(upload.owner()).get("/files/" + Ids.newId() + "/upload").then().statusCode(404);
        JsonPath link = as(upload.owner()).get("/files/" + upload.fileId() + "/upload").then().statusCode(200)
                .header("Cache-Control", "no-store").body("method", equalTo("PUT")).extract().jsonPath();
        assertEquals(200, put(link.getString("url"), link.getMap("headers", String.class, String.class), content));
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/files/" + upload.fileId()).then()
                .body("status", equalTo("stored")));
        as(upload.owner()).get("/files/" + upload.fileId() + "/upload").then().statusCode(409)
                .body("detail", containsString("is stored"));
    }

    /** A type with a parameter is stored by S3 as declared, so the upload is confirmed. */
    @Test
    void anUploadOfATypeWithAParameterIsConfirmed() throws Exception {
        byte[] content = "a,b\n1,2\n".getBytes(StandardCharsets.US_ASCII);
        Upload upload = declare("table.csv", content.length, "text/csv; charset=utf-8");
        assertEquals(200, put(upload.url(), upload.headers(), content));
        awaitOk("/files/" + upload.fileId());
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(202)
                .body("type", equalTo("cabinet.file.stored.v1"));
    }

    @Test
    void anUploadIsPendingUntilConfirmedThenDownloadsTheSameBytesAndADeletionRemovesThem() throws Exception {
        byte[] content = "%PDF-1.4 quarterly numbers\n".getBytes(StandardCharsets.US_ASCII);
        Upload upload = declare("q1.pdf", content.length, "application/pdf");
        awaitOk("/files/" + upload.fileId()).body("status", equalTo("pending"));
        as(upload.owner()).redirects().follow(false).get("/files/" + upload.fileId() + "/content").then()
                .statusCode(409).body("detail", containsString("pending"));
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(409)
                .body("detail", containsString("nothing was uploaded"));

        assertEquals(200, put(upload.url(), upload.headers(), content));
        as(newUserId()).post("/files/" + upload.fileId() + "/complete").then().statusCode(403);
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(202)
                .body("type", equalTo("cabinet.file.stored.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/files/" + upload.fileId()).then()
                .body("status", equalTo("stored")));
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(200);
        // Under an Idempotency-Key, the confirmation of a stored file (200, no body) is replayed as it was answered.
        String noBody = as(upload.owner()).header("Idempotency-Key", "complete-again")
                .post("/files/" + upload.fileId() + "/complete").then().statusCode(200).extract().asString();
        as(upload.owner()).header("Idempotency-Key", "complete-again").post("/files/" + upload.fileId() + "/complete")
                .then().statusCode(200).header("Idempotent-Replayed", "true").body(equalTo(noBody));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/folders/" + upload.folderId() + "/files")
                .then().body("items[0].status", equalTo("stored")));

        as(newUserId()).redirects().follow(false).get("/files/" + upload.fileId() + "/content").then().statusCode(403);
        String location = as(upload.owner()).redirects().follow(false).get("/files/" + upload.fileId() + "/content")
                .then().statusCode(303).extract().header("Location");
        HttpResponse<byte[]> download = HTTP.send(HttpRequest.newBuilder(URI.create(location)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, download.statusCode());
        assertArrayEquals(content, download.body());

        as(upload.owner()).delete("/files/" + upload.fileId()).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(404, objectStatus(upload)));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> as(upload.owner()).redirects().follow(false)
                .get("/files/" + upload.fileId() + "/content").then().statusCode(404));
    }

    @Test
    void theUploadUrlBindsItsKeyLengthAndTypeAndTheLocalS3RefusesAnyChangeAsAmazonS3Does() throws Exception {
        Upload upload = declare("notes.txt", 5, "text/plain");
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        assertEquals(403, put(upload.url(), upload.headers(), "hello!".getBytes(StandardCharsets.US_ASCII)),
                "a length other than the declared one");
        Map<String, String> otherType = new HashMap<>(upload.headers());
        otherType.put("content-type", "text/html");
        assertEquals(403, put(upload.url(), otherType, hello), "a content type other than the declared one");
        assertEquals(403, put(upload.url().replace(upload.fileId(), "other"), upload.headers(), hello),
                "the URL pointed at another key");
        assertEquals(403, put(changedSignature(upload.url()), upload.headers(), hello), "one character of the "
                + "signature changed");
        assertEquals(404, objectStatus(upload), "none of them stored anything");

        assertEquals(200, put(upload.url(), upload.headers(), hello), "the upload as issued");
        assertEquals(200, objectStatus(upload));
    }

    /** The check on confirming stays: content written under the key by other means than the URL is measured too. */
    @Test
    void contentOfAnotherSizeWrittenByOtherMeansIsRefusedWhenConfirmed() throws Exception {
        Upload upload = declare("notes.txt", 5, "text/plain");
        String otherMeans = presigner.presignPutObject(request -> request.signatureDuration(Duration.ofMinutes(5))
                .putObjectRequest(put -> put.bucket("cabinet-files").key(key(upload)).contentType("text/plain")
                        .contentLength(6L))).url().toString();
        assertEquals(200, put(otherMeans, Map.of("content-type", "text/plain"),
                "hello!".getBytes(StandardCharsets.US_ASCII)));
        awaitOk("/files/" + upload.fileId());
        as(upload.owner()).post("/files/" + upload.fileId() + "/complete").then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", equalTo("the uploaded content of file " + upload.fileId()
                        + " has 6 bytes, but 5 were declared"));
        given().get("/files/" + upload.fileId()).then().body("status", equalTo("pending"));
    }

    /** The URL with the last character of its X-Amz-Signature changed (to another hex digit). */
    private static String changedSignature(String url) {
        int at = url.indexOf("X-Amz-Signature=") + "X-Amz-Signature=".length() + 63;
        char last = url.charAt(at);
        return url.substring(0, at) + (last == '0' ? '1' : '0') + url.substring(at + 1);
    }

    @Test
    void anExpiredUploadUrlIsRefusedByTheLocalS3() {
        Upload upload = declare("late.txt", 4, "text/plain");
        String expiring = presigner.presignPutObject(request -> request.signatureDuration(Duration.ofSeconds(1))
                .putObjectRequest(put -> put.bucket("cabinet-files").key(key(upload)).contentType("text/plain")
                        .contentLength(4L))).url().toString();
        await().atMost(Duration.ofSeconds(15)).until(() -> put(expiring, upload.headers(),
                "late".getBytes(StandardCharsets.US_ASCII)) == 403);
    }

    @Test
    void aDeletionDuringAnOutageOfTheLocalS3RemovesTheObjectOnceItIsBack() throws Exception {
        Upload upload = stored("%PDF-1.4 kept through an outage\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(200, objectStatus(upload));
        double retriedBefore = retried();
        ((Runnable) System.getProperties().get(STOP)).run();
        try {
            as(upload.owner()).delete("/files/" + upload.fileId()).then().statusCode(202);
            await().atMost(PROJECTION_WAIT).until(() -> retried() > retriedBefore);
        } finally {
            ((Runnable) System.getProperties().get(START)).run();
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(404, objectStatus(upload)));
    }

    private double retried() {
        Counter counter = meters.find("cabinet_file_object_deletions").tag("outcome", "retried").counter();
        return counter == null ? 0 : counter.count();
    }
}
