package dev.cabinet.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import dev.cabinet.devservices.launcher.BrokerAndStore;
import dev.cabinet.devservices.launcher.Dynalite;
import dev.cabinet.devservices.launcher.FreePorts;
import dev.cabinet.devservices.launcher.KafkaBroker;
import dev.cabinet.devservices.launcher.LaunchSettings;
import dev.cabinet.devservices.launcher.OrphanRegistry;
import dev.cabinet.eventlog.Topics;
import io.smallrye.jwt.build.Jwt;

/**
 * The service's packaged application (service/target/quarkus-app) in the prod profile, wired as a deployment wires it
 * (the {@code CABINET_*} variables) to a Kafka broker and dynalite of its own and to a test issuer's key, which signs
 * the users' tokens here: production has no token endpoint.
 */
final class CabinetProcess implements AutoCloseable {

    private static final Path JAR = Path.of("..", "..", "service", "target", "quarkus-app", "quarkus-run.jar");
    private static final String ISSUER = "https://issuer.client.test";
    private static final String AUDIENCE = "cabinet";
    private static final int PARTITIONS = 6;

    private final Dynalite dynalite;
    private final KafkaBroker broker;
    private final KeyPair keys;
    private final int port;
    private Process app;

    private CabinetProcess(Dynalite dynalite, KafkaBroker broker, KeyPair keys, int port) {
        this.dynalite = dynalite;
        this.broker = broker;
        this.keys = keys;
        this.port = port;
    }

    static CabinetProcess start() throws Exception {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: build the service module first");
        }
        Path dir = Path.of("target", "cabinet").toAbsolutePath();
        Files.createDirectories(dir);
        OrphanRegistry registry = new OrphanRegistry(dir.resolve("pids"));
        registry.reapOrphans();
        LaunchSettings settings = LaunchSettings.defaults();
        BrokerAndStore infrastructure = BrokerAndStore.start(settings, dir, registry);
        Dynalite dynalite = infrastructure.dynalite();
        KafkaBroker broker = infrastructure.broker();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        CabinetProcess cabinet = new CabinetProcess(dynalite, broker, generator.generateKeyPair(), FreePorts.pick());
        try {
            List<String> topics = new ArrayList<>(Topics.ALL);
            topics.add(Topics.DEAD_LETTERS);
            KafkaBroker.createTopics(broker.bootstrapServers(), topics, PARTITIONS);
            cabinet.startApp(dir);
            return cabinet;
        } catch (Exception | Error e) {
            cabinet.close();
            throw e;
        }
    }

    /** A client of the application, with {@code userId}'s bearer token on every request (none if null). */
    ApiClient client(String userId) {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + port);
        if (userId != null) {
            String token = Jwt.subject(userId).issuer(ISSUER).audience(AUDIENCE).expiresIn(Duration.ofMinutes(10))
                    .sign(keys.getPrivate());
            client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
        }
        return client;
    }

    private void startApp(Path dir) throws Exception {
        Path publicKey = dir.resolve("issuer-public-key.pem");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder()
                .encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-Dkafka.bootstrap.servers=" + broker.bootstrapServers(),
                "-Dquarkus.dynamodb.endpoint-override=" + dynalite.endpoint(),
                // Production verifies a table made by infrastructure; here the application makes its own.
                "-Dcabinet.table.create-if-missing=true"));
        for (String service : List.of("dynamodb", "s3")) {
            command.add("-Dquarkus." + service + ".aws.region=us-east-1");
            command.add("-Dquarkus." + service + ".aws.credentials.type=static");
            command.add("-Dquarkus." + service + ".aws.credentials.static-provider.access-key-id=test");
            command.add("-Dquarkus." + service + ".aws.credentials.static-provider.secret-access-key=test");
        }
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("cabinet.log").toFile());
        builder.environment().putAll(Map.of(
                "CABINET_JWT_ISSUER", ISSUER,
                "CABINET_JWT_PUBLIC_KEY_LOCATION", "file:" + publicKey,
                "CABINET_JWT_AUDIENCE", AUDIENCE,
                "CABINET_CURSOR_SECRET", "client-test-cursor-signing-key-of-enough-length",
                // No KMS here: the people's data keys are wrapped by a local key (32 bytes, base64), as in dev mode.
                "CABINET_KEY_WRAPPING", "local",
                "CABINET_LOCAL_WRAPPING_KEY", "Y2xpZW50LXRlc3QtbG9jYWwtd3JhcHBpbmcta2V5ISE="));
        app = builder.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        Awaitility.await("Cabinet is ready").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (!app.isAlive()) {
                        throw new IllegalStateException("Cabinet exited with " + app.exitValue() + "; see "
                                + dir.resolve("cabinet.log"));
                    }
                    try {
                        return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    } catch (IOException e) {
                        return false;
                    }
                });
    }

    @Override
    public void close() throws Exception {
        if (app != null && app.isAlive()) {
            app.destroy();
            if (!app.waitFor(40, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
        broker.close();
        dynalite.close();
    }
}
