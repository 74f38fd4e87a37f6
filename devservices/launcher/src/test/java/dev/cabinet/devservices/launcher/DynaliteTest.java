package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dynalite as the launcher runs it: a client that dies in the middle of a request no longer brings it down. */
class DynaliteTest {

    @TempDir
    Path stateDir;

    @Test
    void survivesAClientThatResetsTheConnectionMidRequest() throws Exception {
        try (Dynalite dynalite = Dynalite.start(LaunchSettings.defaults(), stateDir,
                new OrphanRegistry(stateDir.resolve("pids")))) {
            URI endpoint = URI.create(dynalite.endpoint());
            try (Socket socket = new Socket(endpoint.getHost(), endpoint.getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                        + "Content-Length: 1000\r\n\r\n{\"TableName\":").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.setSoLinger(true, 0);   // close with a reset, as a killed process's socket does
            }
            assertTrue(answersWithin(endpoint, 50), "dynalite stopped answering; its log:\n"
                    + String.join("\n", Files.readAllLines(stateDir.resolve("dynalite-" + endpoint.getPort() + ".log"))));
        }
    }

    /**
     * The store's knobs answer over its own port; with a latency set, every DynamoDB call answers no sooner than the
     * delay, and with none, at once again. A knob the store does not have, or a latency below its median, is refused.
     */
    @Test
    void aLatencySetOverItsOwnPortDelaysEveryCallUntilItIsTakenAway() throws Exception {
        try (Dynalite dynalite = Dynalite.start(LaunchSettings.defaults(), stateDir,
                new OrphanRegistry(stateDir.resolve("pids")))) {
            StoreHooks hooks = dynalite.hooks();
            assertTrue(hooks.current().contains("\"latency\":null"), hooks.current());
            hooks.latency(java.time.Duration.ofMillis(300), java.time.Duration.ofMillis(300));
            assertTrue(hooks.current().contains("\"medianMs\":300"), hooks.current());
            long started = System.nanoTime();
            int status = listTables(URI.create(dynalite.endpoint()));
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(200, status);
            assertTrue(tookMillis >= 300, "answered after " + tookMillis + " ms");
            hooks.noLatency();
            assertTrue(hooks.current().contains("\"latency\":null"), hooks.current());

            HttpURLConnection refused = (HttpURLConnection) URI.create(dynalite.endpoint() + "/cabinet/store-hooks")
                    .toURL().openConnection();
            refused.setRequestMethod("POST");
            refused.setDoOutput(true);
            refused.getOutputStream().write("{\"latency\": {\"medianMs\": 5, \"p99Ms\": 1}}"
                    .getBytes(StandardCharsets.UTF_8));
            assertEquals(400, refused.getResponseCode());
        }
    }

    /** ListTables, signed as dynalite requires (it checks that a signature is there, not what it says). */
    private static int listTables(URI endpoint) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) endpoint.toURL().openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "application/x-amz-json-1.0");
        connection.setRequestProperty("X-Amz-Target", "DynamoDB_20120810.ListTables");
        connection.setRequestProperty("X-Amz-Date", "20260601T000000Z");
        connection.setRequestProperty("Authorization", "AWS4-HMAC-SHA256 Credential=test/20260601/us-east-1/dynamodb/"
                + "aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=00");
        connection.getOutputStream().write("{}".getBytes(StandardCharsets.UTF_8));
        return connection.getResponseCode();
    }

    /** Whether dynalite answers an HTTP request, asking up to {@code attempts} times (it may still be handling the reset). */
    private static boolean answersWithin(URI endpoint, int attempts) throws Exception {
        for (int i = 0; i < attempts; i++) {
            try {
                HttpURLConnection connection = (HttpURLConnection) endpoint.toURL().openConnection();
                connection.setConnectTimeout(1000);
                connection.setReadTimeout(1000);
                if (connection.getResponseCode() > 0) {
                    return true;
                }
            } catch (java.io.IOException e) {
                Thread.onSpinWait();
            }
        }
        return false;
    }
}
