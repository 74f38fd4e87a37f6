package dev.cabinet.devservices.launcher;

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
