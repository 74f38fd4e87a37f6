package dev.cabinet.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;

/**
 * Every Kafka client tries to reconnect at least once a second after a broker outage: the connector's own default (10 s)
 * kept the producer and the projector's consumers away for up to 10 s after a minute's outage ended (docs/faults.md).
 * Read from the clients as the connector built them, and from the configuration Cabinet's own clients copy.
 */
@QuarkusTest
class ReconnectBackoffTest {

    private static final String BACKOFF = "reconnect.backoff.max.ms";

    @Inject
    KafkaClientService kafka;

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> sharedConfig;

    @Test
    void everyKafkaClientRetriesTheBrokerWithinASecond() {
        List<Map<String, ?>> configs = new ArrayList<>();
        kafka.getProducerChannels().forEach(channel -> configs.add(kafka.getProducer(channel).configuration()));
        kafka.getConsumerChannels().forEach(channel -> kafka.getConsumers(channel)
                .forEach(consumer -> configs.add(consumer.configuration())));
        assertFalse(configs.size() < 4, "the events and dead-letter producers and the projector's consumers: " + configs);
        for (Map<String, ?> config : configs) {
            assertEquals("1000", String.valueOf(config.get(BACKOFF)), () -> "client " + config.get("client.id"));
        }
        // LogSearch and LogEnds build their clients from this map
        assertEquals("1000", String.valueOf(sharedConfig.get(BACKOFF)));
    }
}
