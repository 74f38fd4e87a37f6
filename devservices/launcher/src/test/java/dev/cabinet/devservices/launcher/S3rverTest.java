package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** s3rver as the launcher runs it: the bucket exists once it listens, and a restart keeps the objects. */
class S3rverTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path stateDir;

    @Test
    void createsTheBucketBeforeListeningAndKeepsObjectsThroughARestart() throws Exception {
        try (S3rver s3rver = S3rver.start(LaunchSettings.defaults(), stateDir, new OrphanRegistry(stateDir.resolve("pids")),
                "cabinet-test")) {
            assertEquals(200, status(HttpRequest.newBuilder(uri(s3rver, "/cabinet-test/")).GET()));
            assertEquals(404, status(HttpRequest.newBuilder(uri(s3rver, "/no-such-bucket/")).GET()));
            // s3rver lets unsigned requests through (Amazon S3 would not): enough to put an object without a signer.
            assertEquals(200, status(HttpRequest.newBuilder(uri(s3rver, "/cabinet-test/a/b"))
                    .PUT(HttpRequest.BodyPublishers.ofString("kept"))));

            s3rver.restart();

            HttpResponse<String> object = HTTP.send(HttpRequest.newBuilder(uri(s3rver, "/cabinet-test/a/b")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, object.statusCode());
            assertEquals("kept", object.body());
        }
    }

    private static URI uri(S3rver s3rver, String path) {
        return URI.create(s3rver.endpoint() + path);
    }

    private static int status(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
