package dev.cabinet.devservices.launcher;

import java.time.Duration;

/**
 * How to launch the broker and dynalite: the Kafka version whose jars run the broker, the broker JVM's options, the Node
 * and npm commands, and how long a start may take.
 */
public record LaunchSettings(String kafkaVersion, String brokerJvmOptions, String nodeCommand, String npmCommand,
        Duration startTimeout) {

    /** The defaults the Dev Services use when nothing is configured. */
    public static LaunchSettings defaults() {
        return new LaunchSettings("4.1.2", "-Xms64m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1", "node", "npm",
                Duration.ofSeconds(90));
    }
}
