package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * s3proxy as the launcher runs it: the bucket exists once it listens, only requests signed with its key pair are
 * served (unsigned or wrongly signed ones are refused 403, as Amazon S3 refuses them), a missing key answers 404, and
 * a restart keeps the objects.
 */
class S3ProxyTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path stateDir;

    @Test
    void servesOnlySignedRequestsAndKeepsObjectsThroughARestart() throws Exception {
        try (S3Proxy s3 = S3Proxy.start(LaunchSettings.defaults(), stateDir, new OrphanRegistry(stateDir.resolve("pids")),
                "cabinet-test")) {
            byte[] content = "kept".getBytes(StandardCharsets.UTF_8);
            assertEquals(200, send(s3, "PUT", "/cabinet-test/a/b.txt", content, S3Proxy.SECRET_KEY).statusCode());
            assertEquals(403, HTTP.send(HttpRequest.newBuilder(URI.create(s3.endpoint() + "/cabinet-test/a/b.txt"))
                    .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode(), "unsigned");
            assertEquals(403, send(s3, "GET", "/cabinet-test/a/b.txt", null, "another-secret").statusCode(),
                    "signed with another key");
            assertEquals(404, send(s3, "HEAD", "/cabinet-test/missing", null, S3Proxy.SECRET_KEY).statusCode());
            assertEquals(404, send(s3, "GET", "/no-such-bucket/x", null, S3Proxy.SECRET_KEY).statusCode());

            s3.restart();
            HttpResponse<String> object = send(s3, "GET", "/cabinet-test/a/b.txt", null, S3Proxy.SECRET_KEY);
            assertEquals(200, object.statusCode());
            assertEquals("kept", object.body());
        }
    }

    /** A request signed with AWS signature version 2 (s3proxy takes v2 and v4), under the access key it knows. */
    private static HttpResponse<String> send(S3Proxy s3, String method, String path, byte[] body, String secret)
            throws Exception {
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.RFC_1123_DATE_TIME);
        String type = body == null ? "" : "text/plain";
        String toSign = method + "\n\n" + type + "\n" + date + "\n" + path;
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        String signature = Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(s3.endpoint() + path))
                .header("Date", date)
                .header("Authorization", "AWS " + S3Proxy.ACCESS_KEY + ":" + signature)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null) {
            request.header("Content-Type", type);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
