package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The knobs of a dynalite started by {@link Dynalite} (its preloaded store-hooks.js), set at run time over HTTP on
 * dynalite's own port: for benchmarks and tests that need the store to behave as DynamoDB does where dynalite does not.
 */
public final class StoreHooks {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String endpoint;

    public StoreHooks(String endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Every call answers after a delay drawn from a log-normal distribution with this median and 99th percentile
     * (DynamoDB in one region: about 3 ms and 10 ms).
     */
    public void latency(Duration median, Duration p99) {
        set(String.format(Locale.ROOT, "{\"latency\": {\"medianMs\": %.3f, \"p99Ms\": %.3f}}",
                median.toNanos() / 1e6, p99.toNanos() / 1e6));
    }

    /** Calls answer as soon as dynalite has served them. */
    public void noLatency() {
        set("{\"latency\": null}");
    }

    /**
     * Every item a write changes stays out of index (GSI) reads for this lag, drawn per write; base-table reads see it
     * at once. {@link IndexLag#NONE} takes the lag away.
     */
    public void indexLag(IndexLag lag) {
        set(lag.isNone() ? "{\"gsiLag\": null}" : String.format(Locale.ROOT,
                "{\"gsiLag\": {\"minMs\": %d, \"maxMs\": %d}}", lag.min().toMillis(), lag.max().toMillis()));
    }

    /**
     * Keys whose partition key starts with {@code keyPrefix} ({@code ""}: every key) are refused with
     * ProvisionedThroughputExceededException past these rates: writes per item, reads per partition key (GetItem,
     * BatchGetItem, a Query of the table); null leaves that kind unlimited, 0 refuses every call.
     */
    public void throttle(Integer writesPerSecond, Integer readsPerSecond, String keyPrefix) {
        set("{\"throttle\": {\"writesPerSecond\": " + writesPerSecond + ", \"readsPerSecond\": " + readsPerSecond
                + ", \"keyPrefix\": \"" + keyPrefix.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}");
    }

    /** No key is refused for its rate. */
    public void noThrottle() {
        set("{\"throttle\": null}");
    }

    /**
     * Writes that touch an item whose {@code "<partition key> <sort key>"} starts with one of {@code keys} reach the
     * store only after {@code hold}, while every other call goes on: some writes land after others sent with them.
     */
    public void holdWrites(List<String> keys, Duration hold) {
        set("{\"holdWrites\": {\"keys\": [" + keys.stream().map(key -> "\"" + key.replace("\\", "\\\\")
                .replace("\"", "\\\"") + "\"").collect(Collectors.joining(", ")) + "], \"ms\": " + hold.toMillis()
                + "}}");
    }

    /** Writes reach the store at once. */
    public void noHeldWrites() {
        set("{\"holdWrites\": null}");
    }

    /** The knobs as they are, as the store answers them (JSON). */
    public String current() {
        return send(HttpRequest.newBuilder(URI.create(endpoint + "/cabinet/store-hooks")).GET());
    }

    private void set(String json) {
        send(HttpRequest.newBuilder(URI.create(endpoint + "/cabinet/store-hooks"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static String send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the store refused its knobs: " + response.statusCode() + " "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
