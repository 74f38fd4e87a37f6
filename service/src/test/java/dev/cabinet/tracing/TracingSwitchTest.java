package dev.cabinet.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URL;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The Kafka connector traces records exactly while the OpenTelemetry SDK is on: application.properties resolved as an
 * instance resolves it, in the prod profile (off unless an operator turns the SDK on) and in tests (on). That the
 * connector's spans and headers are there when it is on is CommandTraceTest's.
 */
class TracingSwitchTest {

    private static final String CONNECTOR_TRACING = "mp.messaging.connector.smallrye-kafka.tracing-enabled";

    @Test
    void aDeployedInstanceTracesNoRecordWhileTheSdkIsOff() throws IOException {
        assertEquals(false, tracing("prod", Map.of()));
    }

    @Test
    void anOperatorWhoTurnsTheSdkOnGetsTheRecordsTracedToo() throws IOException {
        assertEquals(true, tracing("prod", Map.of("QUARKUS_OTEL_SDK_DISABLED", "false")));
        assertEquals(false, tracing("prod", Map.of("QUARKUS_OTEL_SDK_DISABLED", "true")));
    }

    @Test
    void testsTraceTheRecords() throws IOException {
        assertEquals(true, tracing("test", Map.of()));
    }

    private static boolean tracing(String profile, Map<String, String> environment) throws IOException {
        URL properties = TracingSwitchTest.class.getClassLoader().getResource("application.properties");
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withProfile(profile)
                .withSources(new PropertiesConfigSource(properties, 250))
                .withSources(new EnvConfigSource(environment, 300))
                .build();
        return config.getValue(CONNECTOR_TRACING, Boolean.class);
    }
}
