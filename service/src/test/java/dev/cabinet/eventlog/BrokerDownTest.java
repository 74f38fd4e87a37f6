package dev.cabinet.eventlog;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(BrokerDownTest.SilentBroker.class)
class BrokerDownTest {

    /** Points the application at a loopback port nobody listens on: no broker will ever acknowledge. */
    public static class SilentBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("kafka.bootstrap.servers", "127.0.0.1:" + closedPort(),
                    "mp.messaging.outgoing.events-out.max.block.ms", "2000");
        }

        private static int closedPort() {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void aCommandTheLogDoesNotAcknowledgeIsA503WithAnUnknownOutcomeNeverA202() {
        String id = newUserId();
        as(id).body(Map.of("name", "Nobody", "email", "nobody@example.com")).put("/users/" + id)
                .then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", equalTo("5"))
                .body("type", equalTo("urn:cabinet:problem:outcome-unknown"))
                .body("eventId", matchesPattern(Ids.PATTERN));
    }
}
