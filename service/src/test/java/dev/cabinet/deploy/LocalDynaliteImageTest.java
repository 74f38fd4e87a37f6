package dev.cabinet.deploy;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.devservices.launcher.FreePorts;
import dev.cabinet.support.NodeTools;

/**
 * The local overlay's dynalite image (deploy/k8s/overlays/local/dynalite/Dockerfile), run by its own rules where no
 * container engine is: the build context its header names holds what it copies, its install runs from that lockfile,
 * and its entrypoint, with the command's port given on loopback instead, serves DynamoDB's API. The README's local
 * section builds and loads it with the header's commands.
 */
class LocalDynaliteImageTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path image;

    @Test
    void itsInstallAndEntrypointServeDynamoDbFromTheDevServicesLockfile() throws Exception {
        LocalImage dockerfile = LocalImage.of("dynalite");
        Path context = dockerfile.context();
        String workdir = dockerfile.single("WORKDIR (\\S+)");
        for (String source : dockerfile.single("COPY (.+) \\./").split(" ")) {
            Files.copy(context.resolve(source), image.resolve(source));
        }
        // The install as the image runs it, in a folder standing for its WORKDIR. Its last step, emptying npm's
        // cache, only shrinks the image, and here would empty this machine's cache: it is left out.
        String install = dockerfile.single("RUN (.+?) && npm cache clean --force");
        NodeTools.Result npm = NodeTools.run(image, Arrays.asList(install.split(" ")), null);
        assertEquals(0, npm.exit(), npm.stdout() + npm.stderr());

        List<String> command = new ArrayList<>(strings(dockerfile.single("ENTRYPOINT (\\[.+])")));
        assertEquals(List.of("--port", "4567"), strings(dockerfile.single("CMD (\\[.+])")));
        int port = FreePorts.pick();
        command.replaceAll(part -> part.replace(workdir, image.toString()));
        command.addAll(List.of("--host", "127.0.0.1", "--port", Integer.toString(port)));
        Process dynalite = new ProcessBuilder(command).directory(image.toFile()).redirectErrorStream(true)
                .redirectOutput(image.resolve("dynalite.log").toFile()).start();
        try {
            HttpResponse<String> tables = listTables(port);
            assertEquals(200, tables.statusCode(), tables.body());
            assertTrue(JSON.readTree(tables.body()).path("TableNames").isArray(), tables.body());
        } finally {
            dynalite.destroy();
        }
    }

    /** DynamoDB's ListTables, once dynalite listens (it checks that a request is signed, not the signature). */
    private static HttpResponse<String> listTables(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "DynamoDB_20120810.ListTables")
                .header("X-Amz-Date", "20260101T000000Z")
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, "
                        + "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0")
                .timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        // Until dynalite listens: a refused connection is the only sign it has not yet.
        return await().atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(ConnectException.class)
                .until(() -> http.send(request, HttpResponse.BodyHandlers.ofString()), answer -> true);
    }

    private static List<String> strings(String jsonArray) throws Exception {
        return Arrays.asList(JSON.readValue(jsonArray, String[].class));
    }
}
