package dev.cabinet.baseline;

import java.util.Properties;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The producer a user would configure: Cabinet's writer settings (acks=all, idempotent, linger.ms=1). */
@ApplicationScoped
public class KafkaClients {

    @Produces
    @ApplicationScoped
    KafkaProducer<String, byte[]> producer(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    void close(@Disposes KafkaProducer<String, byte[]> producer) {
        producer.close();
    }
}
