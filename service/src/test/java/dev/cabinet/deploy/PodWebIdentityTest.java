package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider;

/**
 * A pod's AWS identity as EKS hands it over (IAM roles for service accounts): the webhook mounts a token file and sets
 * {@code AWS_WEB_IDENTITY_TOKEN_FILE} and {@code AWS_ROLE_ARN} from the ServiceAccount's annotation, and the SDK's
 * default credentials chain (what every Cabinet client uses) trades the token with STS for the role's credentials.
 * That step needs the SDK's STS module on the class path; without it the chain skips the web identity and falls through
 * to the node's role. Here a stand-in for STS on 127.0.0.1 answers AssumeRoleWithWebIdentity, and the test checks what
 * the SDK asked (the prod overlay's role, the mounted token) and that it uses the answer. The same settings as system
 * properties, since a test cannot set its own JVM's environment.
 */
class PodWebIdentityTest {

    private static final Path SERVICE_ACCOUNTS = Path.of("..", "deploy", "k8s", "overlays", "prod",
            "service-account.yaml");

    @Test
    void theDefaultChainTradesThePodsWebIdentityTokenForItsRolesCredentials(@TempDir Path dir) throws Exception {
        String roleArn = apiRoleArn();
        Path token = Files.writeString(dir.resolve("token"), "eyJ.projected.service-account-token");
        Map<String, String> asked = new HashMap<>();
        HttpServer sts = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sts.createContext("/", exchange -> {
            asked.putAll(form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            byte[] body = ASSUMED.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/xml");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        sts.start();
        Map<String, String> settings = Map.of(
                "aws.webIdentityTokenFile", token.toString(),
                "aws.roleArn", roleArn,
                "aws.roleSessionName", "cabinet-api-pod",
                "aws.region", "eu-west-1",
                "aws.endpointUrlSts", "http://127.0.0.1:" + sts.getAddress().getPort());
        Map<String, String> before = new HashMap<>();
        settings.forEach((name, value) -> before.put(name, System.setProperty(name, value)));
        try (WebIdentityTokenFileCredentialsProvider chainsStep = WebIdentityTokenFileCredentialsProvider.create()) {
            AwsCredentials credentials = chainsStep.resolveCredentials();
            assertTrue(credentials instanceof AwsSessionCredentials, credentials.getClass().getName());
            assertEquals("ASIAPODROLE", credentials.accessKeyId());
            assertEquals("AssumeRoleWithWebIdentity", asked.get("Action"));
            assertEquals(roleArn, asked.get("RoleArn"));
            assertEquals("eyJ.projected.service-account-token", asked.get("WebIdentityToken"));
        } finally {
            sts.stop(0);
            before.forEach((name, value) -> {
                if (value == null) {
                    System.clearProperty(name);
                } else {
                    System.setProperty(name, value);
                }
            });
        }
    }

    /** The role the prod overlay's API ServiceAccount names, which EKS hands to the pod as AWS_ROLE_ARN. */
    private static String apiRoleArn() throws IOException {
        List<String> lines = Files.readAllLines(SERVICE_ACCOUNTS);
        return lines.stream().map(String::trim).filter(line -> line.startsWith("eks.amazonaws.com/role-arn:"))
                .map(line -> line.substring(line.indexOf(':') + 1).trim())
                .filter(arn -> arn.endsWith("/cabinet-api")).findFirst().orElseThrow();
    }

    private static Map<String, String> form(String body) {
        return Arrays.stream(body.split("&")).map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(pair -> decode(pair[0]), pair -> pair.length > 1 ? decode(pair[1]) : ""));
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static final String ASSUMED = """
            <AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
              <AssumeRoleWithWebIdentityResult>
                <Credentials>
                  <AccessKeyId>ASIAPODROLE</AccessKeyId>
                  <SecretAccessKey>pod-role-secret</SecretAccessKey>
                  <SessionToken>pod-role-session</SessionToken>
                  <Expiration>2099-01-01T00:00:00Z</Expiration>
                </Credentials>
                <AssumedRoleUser>
                  <Arn>arn:aws:sts::123456789012:assumed-role/cabinet-api/cabinet-api-pod</Arn>
                  <AssumedRoleId>AROAEXAMPLE:cabinet-api-pod</AssumedRoleId>
                </AssumedRoleUser>
              </AssumeRoleWithWebIdentityResult>
              <ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ResponseMetadata>
            </AssumeRoleWithWebIdentityResponse>
            """;
}
