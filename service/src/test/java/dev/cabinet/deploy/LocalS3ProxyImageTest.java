package dev.cabinet.deploy;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.devservices.launcher.FreePorts;
import dev.cabinet.devservices.launcher.MavenClasspath;
import dev.cabinet.devservices.launcher.S3Proxy;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The local overlay's s3proxy image (deploy/k8s/overlays/local/s3proxy/Dockerfile), run by its own rules where no
 * container engine is: it resolves the s3proxy the Dev Services run, copies the files its context holds, and its
 * entrypoint, with its paths standing for folders here and its port given on loopback, serves the bucket Cabinet writes
 * to with the keys the local overlay gives Cabinet, and refuses other keys. The README's local section builds and
 * loads it with the header's commands, and the local overlay points Cabinet at it.
 */
class LocalS3ProxyImageTest {

    private static final Path LOCAL = LocalImage.ROOT.resolve("deploy/k8s/overlays/local");
    private static final String IMAGE_DIR = "/opt/s3proxy/";
    private static final String DATA = "/data";

    @TempDir
    Path image;

    @Test
    void itsEntrypointServesTheBucketWithTheKeysTheLocalOverlayGivesCabinet() throws Exception {
        LocalImage dockerfile = LocalImage.of("s3proxy");
        String config = Files.readString(LOCAL.resolve("config.yaml"));
        assertTrue(config.contains("QUARKUS_S3_ENDPOINT_OVERRIDE: http://s3proxy:9000")
                && config.contains("QUARKUS_S3_PATH_STYLE_ACCESS: \"true\""), "the local overlay sends Cabinet there");

        // The jars its first stage copies: the pom's s3proxy, which must be the one the Dev Services run.
        Matcher version = Pattern.compile("<artifactId>s3proxy</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(dockerfile.context().resolve("pom.xml")));
        assertTrue(version.find(), "pom.xml names s3proxy");
        assertEquals(S3Proxy.COORDINATES, "org.gaul:s3proxy:" + version.group(1));
        String classpath = MavenClasspath.resolve(S3Proxy.COORDINATES);

        // What its second stage copies, into a folder standing for /opt/s3proxy, listening on loopback here.
        int port = FreePorts.pick();
        Path data = Files.createDirectories(image.resolve("data"));
        Path opt = Files.createDirectories(image.resolve("opt"));
        for (String file : dockerfile.single("COPY (.+) " + IMAGE_DIR).split(" ")) {
            String copied = Files.readString(dockerfile.context().resolve(file))
                    .replace("http://0.0.0.0:9000", "http://127.0.0.1:" + port)
                    .replace("basedir=" + DATA, "basedir=" + data);
            Files.writeString(opt.resolve(file), copied);
        }
        List<String> entrypoint = Arrays.asList(new ObjectMapper().readValue(dockerfile.single("ENTRYPOINT (\\[.+])"),
                String[].class));
        assertEquals(List.of("/bin/sh", "-c"), entrypoint.subList(0, 2));
        String script = entrypoint.get(2)
                .replace("'" + IMAGE_DIR + "lib/*'", "'" + classpath + "'")
                .replace(IMAGE_DIR, opt + "/")
                .replace(DATA + "/", data + "/");
        Process s3proxy = new ProcessBuilder("/bin/sh", "-c", script).directory(image.toFile())
                .redirectErrorStream(true).redirectOutput(image.resolve("s3proxy.log").toFile()).start();
        try (S3Client cabinet = client(port, "local", "local"); S3Client stranger = client(port, "local", "other")) {
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                cabinet.putObject(put -> put.bucket("cabinet-files").key("probe"), RequestBody.fromString("hello"));
                return true;
            });
            assertEquals("hello", cabinet.getObjectAsBytes(get -> get.bucket("cabinet-files").key("probe"))
                    .asUtf8String());
            S3Exception refused = assertThrows(S3Exception.class,
                    () -> stranger.getObjectAsBytes(get -> get.bucket("cabinet-files").key("probe")));
            assertEquals(403, refused.statusCode(), "a request signed with another key is refused");
        } finally {
            s3proxy.destroy();
            s3proxy.waitFor();
        }
    }

    private static S3Client client(int port, String accessKey, String secretKey) {
        // Checksums only where S3 requires them, as before SDK 2.30: s3proxy does not read the streamed trailing ones.
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED).region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .build();
    }
}
