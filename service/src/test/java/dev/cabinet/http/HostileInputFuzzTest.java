package dev.cabinet.http;

import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.tokenFor;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.Endpoints;
import dev.cabinet.support.Endpoints.Endpoint;
import dev.cabinet.shared.Ids;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Hostile input against every endpoint: ids with {@code #}, control characters, unicode edge cases and lengths past the
 * bounds; bad JSON, wrong types, unknown, missing, huge and empty fields; wrong content types; negative, huge and
 * non-numeric page sizes; forged cursors, tokens, consistency tokens and idempotency keys. Every answer must be a 4xx
 * problem+json naming the issue (never a 5xx), and the event log must grow by exactly the commands that were accepted
 * (none are expected). {@code -Dcabinet.fuzz.requests=N} and {@code -Dcabinet.fuzz.seed=S} change the run.
 */
@QuarkusTest
class HostileInputFuzzTest {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> WRONG_CONTENT_TYPES = List.of("text/plain", "application/xml",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=x");
    /** Bodies go out as the bytes given, whatever the content type says (RestAssured would encode forms). */
    private static final RestAssuredConfig RAW_BODIES = rawBodies();
    private static final Arbitrary<String> TEXT = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(80);

    @Test
    void everyHostileRequestIsRefusedWithAProblemAndWritesNothing() throws Exception {
        int requests = Integer.getInteger("cabinet.fuzz.requests", 600);
        long seed = Long.getLong("cabinet.fuzz.seed", System.nanoTime());
        Random random = new Random(seed);
        String user = newUserId();
        register(user, "Fuzzer");
        String token = tokenFor(user);
        List<Endpoint> endpoints = Endpoints.all();
        long eventsBefore = eventCount();

        Map<Integer, Integer> statuses = new TreeMap<>();
        Map<String, Integer> kinds = new TreeMap<>();
        int accepted = 0;
        for (int i = 0; i < requests; i++) {
            Endpoint endpoint = endpoints.get(random.nextInt(endpoints.size()));
            Hostile hostile = hostile(endpoint, random, user, token);
            Response response = hostile.send();
            int status = response.statusCode();
            statuses.merge(status, 1, Integer::sum);
            kinds.merge(hostile.kind().split(" ")[0], 1, Integer::sum);
            String what = hostile.describe() + " answered " + status + ": " + response.asString();
            assertTrue(status < 500, "a 5xx: " + what + " (seed " + seed + ")");
            if (hostile.kind().startsWith("token") && endpoint.isCommand()) {
                assertEquals(401, status, "a forged token is unauthenticated, whatever else is wrong: " + what);
            }
            if (status >= 200 && status < 300) {
                // A command appended its event when the answer names it (202, or 200 after Prefer: wait); a 200 that
                // names none changed nothing (a repeat, or undoing what was never done).
                accepted += endpoint.isCommand() && response.asString().contains("\"eventId\"") ? 1 : 0;
                continue;
            }
            assertTrue(status >= 400, what);
            assertTrue(String.valueOf(response.contentType()).startsWith("application/problem+json"), "not a problem: "
                    + what);
            JsonNode problem = JSON.readTree(response.asString());
            assertEquals(status, problem.path("status").asInt(), what);
            assertTrue(problem.path("type").asText().startsWith("urn:cabinet:problem:"), what);
            assertTrue(problem.path("detail").asText().length() > 5, "a problem that names no issue: " + what);
        }
        System.out.printf("[fuzz] %d hostile requests (seed %d) to %d endpoints: statuses %s; kinds %s; %d accepted%n",
                requests, seed, endpoints.size(), statuses, kinds, accepted);
        assertEquals(eventsBefore + accepted, eventCount(), "refused requests wrote events (seed " + seed + ")");
    }

    /** One hostile request: how it is built, and what it is for the failure message. */
    private record Hostile(String kind, String method, String path, RequestSpecification request) {
        Response send() {
            return request.request(method, path);
        }

        String describe() {
            return kind + " " + method + " " + path;
        }
    }

    private static Hostile hostile(Endpoint endpoint, Random random, String user, String token) {
        String kind = pick(random, endpoint.isCommand()
                ? List.of("id", "body", "content-type", "token", "idempotency-key", "if-match", "query")
                : List.of("id", "query", "consistency-token", "token"));
        RequestSpecification request = given().config(RAW_BODIES).urlEncodingEnabled(false)
                .contentType("application/json");
        if (!kind.equals("token")) {
            request.header("Authorization", "Bearer " + token);
        }
        String path = fill(endpoint.path(), random, kind.equals("id"));
        switch (kind) {
            case "body" -> request.body(utf8(hostileBody(endpoint.body(), random)));
            case "content-type" -> request.contentType(pick(random, WRONG_CONTENT_TYPES))
                    .body(utf8(pick(random, List.of("name=x", "<a/>", "{}", "\u0000"))));
            case "token" -> {
                String credentials = pick(random, List.of("Bearer " + text(random),
                        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSJ9.", "Basic dXNlcjpwYXNz",
                        "Bearer " + token.substring(0, token.length() - 5) + "AAAAA"));
                request.header("Authorization", credentials).body(utf8("{}"));
                kind = "token " + credentials.substring(0, Math.min(credentials.length(), 12));
            }
            case "idempotency-key" -> request.header("Idempotency-Key", pick(random, List.of("k".repeat(256), "",
                    " ", "a\u0007b"))).body(utf8("{}"));
            case "if-match" -> request.header("If-Match", pick(random, List.of("\"nope\"", "W/\"x\"", "*", "garbage")))
                    .body(utf8(hostileBody(endpoint.body(), random)));
            case "consistency-token" -> request.header("Consistency-Token", pick(random, List.of("garbage",
                    "cabinet.users:0:-1", "cabinet.users:999:1", "other.topic:1:1", "cabinet.users:1:99999999999",
                    ":::", text(random))));
            case "query" -> {
                List<String> names = new ArrayList<>(endpoint.queryParameters());
                names.addAll(List.of("limit", "cursor"));
                request.queryParam(pick(random, names), encode(pick(random, List.of("-1", "0", "101", "99999999999999999999",
                        "abc", "1e3", "", "%00", "../../etc", "2026-13-45", "yesterday", "\u202e", text(random)))));
                if (endpoint.isCommand()) {
                    request.body(utf8(hostileBody(endpoint.body(), random)));
                }
            }
            default -> {
                if (endpoint.isCommand()) {
                    request.body(utf8("{}"));
                }
            }
        }
        return new Hostile(kind, endpoint.method(), path, request);
    }

    /** The path with its placeholders filled: unknown valid ids, or (for the "id" kind) one hostile id. */
    private static String fill(String template, Random random, boolean hostileId) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        List<String> names = new ArrayList<>();
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        int hostileAt = hostileId && !names.isEmpty() ? random.nextInt(names.size()) : -1;
        String path = template;
        for (int i = 0; i < names.size(); i++) {
            String value = i == hostileAt ? hostileId(random) : "x" + Ids.newId();
            path = path.replace("{" + names.get(i) + "}", encode(value));
        }
        return path;
    }

    private static String hostileId(Random random) {
        return pick(random, List.of("a#b", "USER#x", "a/b", "a b", "a\u0000b", "a\u001fb", "\u00e9t\u00e9", "\ud83d\ude00",
                "\u202eevil", "e\u0301", "x".repeat(65), "x".repeat(1000), "..", "%2F", "a%00b", "\u0130", "\uffff",
                "'; DROP TABLE", "<script>", "${jndi:x}", text(random) + "#"));
    }

    /** A body that breaks the command's contract: not JSON, the wrong shape, wrong types, unknown or huge fields. */
    private static String hostileBody(Class<?> bodyType, Random random) {
        List<String> fields = bodyType == null || !bodyType.isRecord() ? List.of("name")
                : java.util.Arrays.stream(bodyType.getRecordComponents()).map(RecordComponent::getName).toList();
        String field = pick(random, fields);
        return pick(random, List.of(
                "{", "[]", "null", "\"text\"", "{\"" + field + "\":}", "{'" + field + "':1}", "[".repeat(3000),
                "{\"" + field + "\":{}}", "{\"" + field + "\":[1,2]}", "{\"" + field + "\":{\"$gt\":\"\"}}",
                "{\"actor\":\"someone-else\"}", "{\"" + field + "\":\"" + "x".repeat(70_000) + "\"}",
                "{\"" + field + "\":\"a\\u0000b\"}", "{\"" + field + "\":\"\\ud800\"}", "{\"" + field + "\":1e999}",
                "{\"" + field + "\":-99999999999999999999999}", new String(bytes(random), StandardCharsets.ISO_8859_1),
                "{\"" + field + "\":\"" + "y".repeat(1_100_000) + "\"}"));
    }

    private static RestAssuredConfig rawBodies() {
        EncoderConfig encoders = EncoderConfig.encoderConfig();
        for (String type : WRONG_CONTENT_TYPES) {
            encoders = encoders.encodeContentTypeAs(type.split(";")[0], ContentType.TEXT);
        }
        return RestAssuredConfig.config().encoderConfig(encoders);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(Random random) {
        byte[] bytes = new byte[1 + random.nextInt(64)];
        random.nextBytes(bytes);
        return bytes;
    }

    /**
     * Random text from jqwik's string generator (any unicode, its edge cases included). jqwik's seeded generators only
     * run inside its own engine, which a Quarkus test is not; sampling works anywhere, and each failure message shows
     * the request it failed on.
     */
    private static String text(Random random) {
        return TEXT.sample();
    }

    private static String encode(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static <T> T pick(Random random, List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    /** How many records the event topics hold in all (dead letters aside). */
    private static long eventCount() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : Topics.ALL) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
