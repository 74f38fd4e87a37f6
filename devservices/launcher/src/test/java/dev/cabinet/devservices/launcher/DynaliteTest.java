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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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

    /**
     * With an index lag set, an item just written is in the table at once and missing from its GSI, in an answer the
     * SDK would accept (its CRC-32 header matches the changed body); taking the lag away shows it in the index again.
     */
    @Test
    void anIndexLagKeepsANewItemOutOfTheIndexButNotOutOfTheTable() throws Exception {
        try (Dynalite dynalite = Dynalite.start(LaunchSettings.defaults(), stateDir,
                new OrphanRegistry(stateDir.resolve("pids")))) {
            URI endpoint = URI.create(dynalite.endpoint());
            call(endpoint, "CreateTable", "{\"TableName\":\"lagging\",\"BillingMode\":\"PAY_PER_REQUEST\","
                    + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
                    + "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},"
                    + "{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
                    + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                    + "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                    + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gsi\",\"KeySchema\":[{\"AttributeName\":"
                    + "\"g\",\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}");
            call(endpoint, "PutItem", item("old"));
            dynalite.hooks().indexLag(IndexLag.parse("60s"));
            assertTrue(dynalite.hooks().current().contains("\"gsiLag\":{\"minMs\":60000,\"maxMs\":60000}"),
                    dynalite.hooks().current());
            call(endpoint, "PutItem", item("new"));

            String inTable = call(endpoint, "Query", "{\"TableName\":\"lagging\",\"KeyConditionExpression\":\"pk = :p\","
                    + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}}");
            assertTrue(inTable.contains("\"Count\":2"), inTable);
            String index = "{\"TableName\":\"lagging\",\"IndexName\":\"gsi\",\"KeyConditionExpression\":\"g = :g\","
                    + "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"entry\"}}}";
            String lagging = call(endpoint, "Query", index);
            assertTrue(lagging.contains("\"Count\":1") && lagging.contains("old") && !lagging.contains("new"), lagging);

            dynalite.hooks().indexLag(IndexLag.NONE);
            String caughtUp = call(endpoint, "Query", index);
            assertTrue(caughtUp.contains("\"Count\":2") && caughtUp.contains("new"), caughtUp);
        }
    }

    /**
     * With a throttle, a key past its rate is refused as DynamoDB refuses it, before dynalite carries the call out;
     * other keys, and the key again once the throttle is taken away, are served.
     */
    @Test
    void aThrottledKeyIsRefusedPastItsRateAndNothingOfTheRefusedCallIsWritten() throws Exception {
        try (Dynalite dynalite = Dynalite.start(LaunchSettings.defaults(), stateDir,
                new OrphanRegistry(stateDir.resolve("pids")))) {
            URI endpoint = URI.create(dynalite.endpoint());
            call(endpoint, "CreateTable", "{\"TableName\":\"hot\",\"BillingMode\":\"PAY_PER_REQUEST\","
                    + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
                    + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}");
            dynalite.hooks().throttle(2, 0, "HOT#");
            String add = "{\"TableName\":\"hot\",\"Key\":{\"pk\":{\"S\":\"%s\"}},"
                    + "\"UpdateExpression\":\"ADD n :one\",\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}";
            int served = 0;
            String refusal = null;
            for (int i = 0; i < 50 && refusal == null; i++) {
                Answer answer = send(endpoint, "UpdateItem", String.format(add, "HOT#1"));
                if (answer.status() == 200) {
                    served++;
                } else {
                    refusal = answer.body();
                    assertEquals(400, answer.status(), answer.body());
                }
            }
            assertTrue(refusal != null && refusal.contains("ProvisionedThroughputExceededException"), refusal);
            assertTrue(served >= 2, "a second's worth is served first: " + served);
            for (int i = 0; i < 5; i++) {
                call(endpoint, "UpdateItem", String.format(add, "COLD#1"));
            }
            Answer read = send(endpoint, "GetItem", "{\"TableName\":\"hot\",\"Key\":{\"pk\":{\"S\":\"HOT#1\"}}}");
            assertEquals(400, read.status(), "reads of the key are refused at a rate of 0");

            dynalite.hooks().noThrottle();
            String counted = call(endpoint, "GetItem", "{\"TableName\":\"hot\",\"ConsistentRead\":true,"
                    + "\"Key\":{\"pk\":{\"S\":\"HOT#1\"}}}");
            assertTrue(counted.contains("\"n\":{\"N\":\"" + served + "\"}"), "only the served adds counted: "
                    + counted + " after " + served);
        }
    }

    /**
     * A held write reaches the store only after its hold, matched on "<partition key> <sort key>", while other writes
     * and reads go on meanwhile: the held item is not there yet, then is.
     */
    @Test
    void aHeldWriteLandsAfterItsHoldWhileOtherCallsGoOn() throws Exception {
        try (Dynalite dynalite = Dynalite.start(LaunchSettings.defaults(), stateDir,
                new OrphanRegistry(stateDir.resolve("pids")))) {
            URI endpoint = URI.create(dynalite.endpoint());
            call(endpoint, "CreateTable", "{\"TableName\":\"held\",\"BillingMode\":\"PAY_PER_REQUEST\","
                    + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
                    + "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
                    + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                    + "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}");
            dynalite.hooks().holdWrites(List.of("USER#1 POST#"), Duration.ofSeconds(2));
            String put = "{\"TableName\":\"held\",\"Item\":{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"%s\"}}}";
            String get = "{\"TableName\":\"held\",\"ConsistentRead\":true,\"Key\":{\"pk\":{\"S\":\"USER#1\"},"
                    + "\"sk\":{\"S\":\"%s\"}}}";
            CompletableFuture<String> held = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return call(endpoint, "PutItem", String.format(put, "POST#1"));
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            call(endpoint, "PutItem", String.format(put, "PROFILE"));
            assertTrue(call(endpoint, "GetItem", String.format(get, "PROFILE")).contains("PROFILE"), "not held");
            assertEquals("{}", call(endpoint, "GetItem", String.format(get, "POST#1")), "still held");
            assertEquals("{}", held.get(10, TimeUnit.SECONDS), "the held write answers");
            assertTrue(call(endpoint, "GetItem", String.format(get, "POST#1")).contains("POST#1"), "then it is there");
            dynalite.hooks().noHeldWrites();
        }
    }

    private static String item(String sk) {
        return "{\"TableName\":\"lagging\",\"Item\":{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"" + sk
                + "\"},\"g\":{\"S\":\"entry\"}}}";
    }

    /** One DynamoDB call; fails unless it answers 200 (with a body whose CRC-32 is the one its header states). */
    private static String call(URI endpoint, String operation, String body) throws Exception {
        Answer answer = send(endpoint, operation, body);
        if (answer.status() != 200) {
            throw new AssertionError(operation + ": " + answer.status() + " " + answer.body());
        }
        return answer.body();
    }

    private record Answer(int status, String body) {
    }

    /** One DynamoDB call, whatever it answers; the body's CRC-32 must be the one its header states. */
    private static Answer send(URI endpoint, String operation, String body) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) endpoint.toURL().openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "application/x-amz-json-1.0");
        connection.setRequestProperty("X-Amz-Target", "DynamoDB_20120810." + operation);
        connection.setRequestProperty("X-Amz-Date", "20260601T000000Z");
        connection.setRequestProperty("Authorization", "AWS4-HMAC-SHA256 Credential=test/20260601/us-east-1/dynamodb/"
                + "aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=00");
        connection.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        int status = connection.getResponseCode();
        byte[] answer = (status == 200 ? connection.getInputStream() : connection.getErrorStream()).readAllBytes();
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(answer);
        assertEquals(Long.toString(crc.getValue()), connection.getHeaderField("x-amz-crc32"), operation);
        return new Answer(status, new String(answer, StandardCharsets.UTF_8));
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
