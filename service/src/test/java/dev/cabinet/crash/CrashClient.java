package dev.cabinet.crash;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;

/** A plain HTTP client of the application under test, signing its users' tokens with the test issuer's key. */
public final class CrashClient {

    static final String ISSUER = "https://issuer.crash.test";
    static final String AUDIENCE = "cabinet";
    static final String OPERATOR = "ops";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Function<String, URI> uri;
    private final PrivateKey signingKey;

    CrashClient(Function<String, URI> uri, PrivateKey signingKey) {
        this.uri = uri;
        this.signingKey = signingKey;
    }

    /** The answer to a request, or status -1 if the application did not answer (down, restarting, killed mid-call). */
    public record Answer(int status, JsonNode body) {
        public boolean accepted() {
            return status == 202;
        }
    }

    public Answer send(String method, String path, String userId, Object body) {
        return send(method, path, userId, body, Map.of());
    }

    /** A command that answers once it is projected ({@code Prefer: wait}); fails unless it was applied. */
    public JsonNode applied(String method, String path, String userId, Object body) {
        Answer answer = send(method, path, userId, body, Map.of("Prefer", "wait=30"));
        if (answer.status() != 200 || !"applied".equals(answer.body().path("outcome").asText())) {
            throw new AssertionError(method + " " + path + " answered " + answer.status() + ": " + answer.body());
        }
        return answer.body();
    }

    Answer send(String method, String path, String userId, Object body, Map<String, String> headers) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri.apply(path)).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json");
            headers.forEach(request::header);
            if (userId != null) {
                request.header("Authorization", "Bearer " + token(userId));
            }
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode parsed = response.body().length == 0 ? json.nullNode() : json.readTree(response.body());
            return new Answer(response.statusCode(), parsed);
        } catch (IOException e) {
            return new Answer(-1, json.nullNode());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, json.nullNode());
        }
    }

    public JsonNode get(String path) {
        Answer answer = send("GET", path, null, null);
        if (answer.status() != 200) {
            throw new AssertionError("GET " + path + " answered " + answer.status() + ": " + answer.body());
        }
        return answer.body();
    }

    /** One attribute of every item of a list, read page by page until {@code next} is null. */
    List<String> allPages(String path, String attribute) {
        List<String> values = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = get(path + "?limit=100" + (cursor == null ? "" : "&cursor=" + cursor));
            page.get("items").forEach(item -> values.add(item.get(attribute).asText()));
            cursor = page.hasNonNull("next") ? page.get("next").asText() : null;
        } while (cursor != null);
        return values;
    }

    /** Every bearer token this client has sent: none may ever appear in a log. */
    java.util.Collection<String> tokensSent() {
        return tokens.values();
    }

    /** A request of the operator (a token with the {@code operator} group). */
    public Answer asOperator(String method, String path) {
        return send(method, path, OPERATOR, null);
    }

    /** The bearer token of a user (signed once, then reused). */
    public String token(String userId) {
        return tokens.computeIfAbsent(userId, id -> {
            var claims = claims(id);
            return sign(OPERATOR.equals(id) ? claims.groups("operator") : claims);
        });
    }

    /** A user's claims as this client signs them (the test issuer, the audience, two hours), to change before signing. */
    public static JwtClaimsBuilder claims(String userId) {
        return Jwt.subject(userId).issuer(ISSUER).audience(AUDIENCE).expiresIn(Duration.ofHours(2));
    }

    /** Signs the claims with the test issuer's key. */
    public String sign(JwtClaimsBuilder claims) {
        return claims.sign(signingKey);
    }

    /** A request with this bearer token as it is (one the client did not make itself). */
    public Answer sendWithToken(String method, String path, String token, Object body) {
        return send(method, path, null, body, Map.of("Authorization", "Bearer " + token));
    }
}
