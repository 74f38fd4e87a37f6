package dev.cabinet.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.crash.CrashClient;

/**
 * HTTP calls to the API instance, each one recorded with when it started and ended, its status and its Retry-After,
 * so that the schedule can tell afterwards which answers overlapped which outage and how long they took.
 */
final class Calls {

    /** One request: {@code status} -1 when no answer came within the client's own 30 s limit. */
    record Call(String method, String path, long startNanos, long endNanos, int status, String problemType,
            String retryAfter) {
        long millis() {
            return (endNanos - startNanos) / 1_000_000;
        }

        boolean isRead() {
            return "GET".equals(method);
        }
    }

    /** An answer: status, body (a null node when empty) and the call it was. */
    record Answer(int status, JsonNode body, Call call) {
        boolean accepted() {
            return status == 202 || status == 200;
        }
    }

    /** The client's own limit: far above the answer deadline under test, so a late answer is seen as late. */
    static final Duration CLIENT_LIMIT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final Function<String, URI> uri;
    private final CrashClient tokens;
    private final Queue<Call> recorded = new ConcurrentLinkedQueue<>();

    Calls(Function<String, URI> uri, CrashClient tokens) {
        this.uri = uri;
        this.tokens = tokens;
    }

    Answer send(String method, String path, String userId, Object body) {
        return send(method, path, userId, body, Map.of(), true);
    }

    /** A recorded call with extra headers (an Idempotency-Key). */
    Answer send(String method, String path, String userId, Object body, Map<String, String> headers) {
        return send(method, path, userId, body, headers, true);
    }

    /** A call that is not recorded (the checks after the run, the outcome look-ups). */
    Answer quiet(String method, String path, String userId, Object body) {
        return send(method, path, userId, body, Map.of(), false);
    }

    private Answer send(String method, String path, String userId, Object body, Map<String, String> headers,
            boolean record) {
        long start = System.nanoTime();
        int status;
        JsonNode parsed = json.nullNode();
        String retryAfter = null;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri.apply(path)).timeout(CLIENT_LIMIT)
                    .header("Content-Type", "application/json");
            headers.forEach(request::header);
            if (userId != null) {
                request.header("Authorization", "Bearer " + tokens.token(userId));
            }
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            status = response.statusCode();
            retryAfter = response.headers().firstValue("Retry-After").orElse(null);
            if (response.body().length > 0) {
                parsed = json.readTree(response.body());
            }
        } catch (IOException e) {
            status = -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = -1;
        }
        Call call = new Call(method, path, start, System.nanoTime(), status, parsed.path("type").asText(null),
                retryAfter);
        if (record) {
            recorded.add(call);
        }
        return new Answer(status, parsed, call);
    }

    /** Every recorded call so far. */
    Iterable<Call> recorded() {
        return recorded;
    }
}
