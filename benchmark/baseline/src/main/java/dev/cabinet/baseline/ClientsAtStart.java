package dev.cabinet.baseline;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.producer.KafkaProducer;

import io.quarkus.runtime.StartupEvent;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Builds the store client and the producer when the application starts, as Cabinet builds its own, instead of at the
 * first request: a start measured against Cabinet's (benchmark/footprint) then includes the same clients.
 */
@ApplicationScoped
class ClientsAtStart {

    void build(@Observes StartupEvent start, KafkaProducer<String, byte[]> producer, DynamoDbAsyncClient dynamo) {
        // a call on each client proxy makes the container create the client behind it
        producer.metrics();
        dynamo.serviceName();
    }
}
