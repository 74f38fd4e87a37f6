package dev.cabinet.benchmark;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Asynchronous requests to the application under load, failing the future on any status but the expected one. */
final class Http implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    /** HTTP/1.1 with keep-alive, as wrk and most load balancers speak to a backend (no h2c upgrade). */
    private final HttpClient client = HttpClient.newBuilder().executor(executor).version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Function<String, URI> uri;

    Http(Function<String, URI> uri) {
        this.uri = uri;
    }

    CompletableFuture<JsonNode> get(String path, String token, int expected) {
        return send(HttpRequest.newBuilder(uri.apply(path)).header("Authorization", "Bearer " + token).GET(), expected);
    }

    CompletableFuture<JsonNode> send(String method, String path, String token, Object body, int expected) {
        try {
            return send(HttpRequest.newBuilder(uri.apply(path)).header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), expected);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A plain text body (the metrics page). */
    String text(String path) {
        return client.sendAsync(HttpRequest.newBuilder(uri.apply(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).join().body();
    }

    private CompletableFuture<JsonNode> send(HttpRequest.Builder request, int expected) {
        return client.sendAsync(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(response -> {
                    if (response.statusCode() != expected) {
                        throw new IllegalStateException(response.request().method() + " " + response.request().uri()
                                + " answered " + response.statusCode() + ": " + new String(response.body()));
                    }
                    try {
                        return response.body().length == 0 ? JSON.nullNode() : JSON.readTree(response.body());
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
