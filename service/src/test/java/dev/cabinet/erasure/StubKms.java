package dev.cabinet.erasure;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A stand-in for AWS KMS on 127.0.0.1 that speaks its JSON protocol for the two operations Cabinet uses,
 * GenerateDataKey and Decrypt, for one key: it wraps with AES-GCM under a key of its own, refuses a request naming
 * another key as KMS does (IncorrectKeyException), and remembers each operation it was asked for.
 */
public class StubKms implements QuarkusTestResourceLifecycleManager {

    public static final String KEY_ARN = "arn:aws:kms:eu-west-1:111122223333:key/cabinet-test";
    /** An alias that names {@link #KEY_ARN}, as KMS resolves one. */
    public static final String ALIAS = "alias/cabinet-test";
    /** Every operation asked for, as {@code TrentService.<Operation> <KeyId>}. */
    public static final List<String> REQUESTS = new CopyOnWriteArrayList<>();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private final SecretKeySpec master = new SecretKeySpec(random(32), "AES");
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", this::handle);
        server.start();
        return Map.of("quarkus.kms.endpoint-override", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        JsonNode request;
        try (InputStream body = exchange.getRequestBody()) {
            request = JSON.readTree(body);
        }
        String keyId = request.path("KeyId").asText();
        REQUESTS.add(target + " " + keyId);
        ObjectNode answer = JSON.createObjectNode();
        int status = 200;
        if (!KEY_ARN.equals(keyId) && !ALIAS.equals(keyId)) {
            status = 400;
            answer.put("__type", "IncorrectKeyException").put("message", "not the key this blob was wrapped under");
        } else if ("TrentService.GenerateDataKey".equals(target)) {
            byte[] plain = random(32);
            answer.put("KeyId", KEY_ARN).put("Plaintext", base64(plain)).put("CiphertextBlob", base64(wrap(plain)));
        } else if ("TrentService.Decrypt".equals(target)) {
            byte[] blob = Base64.getDecoder().decode(request.path("CiphertextBlob").asText());
            answer.put("KeyId", KEY_ARN).put("Plaintext", base64(unwrap(blob)));
        } else {
            status = 400;
            answer.put("__type", "UnsupportedOperationException").put("message", target);
        }
        byte[] bytes = JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private byte[] wrap(byte[] plain) {
        byte[] nonce = random(12);
        byte[] sealed = run(Cipher.ENCRYPT_MODE, nonce, plain);
        return ByteBuffer.allocate(12 + sealed.length).put(nonce).put(sealed).array();
    }

    private byte[] unwrap(byte[] blob) {
        return run(Cipher.DECRYPT_MODE, Arrays.copyOf(blob, 12), Arrays.copyOfRange(blob, 12, blob.length));
    }

    private byte[] run(int mode, byte[] nonce, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, master, new GCMParameterSpec(128, nonce));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
