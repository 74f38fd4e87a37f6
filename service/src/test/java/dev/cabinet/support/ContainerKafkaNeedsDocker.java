package dev.cabinet.support;

import java.util.Arrays;
import java.util.Locale;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * With {@code -Dcabinet.devservices.kafka=testcontainers}, skips every {@code @QuarkusTest} class, naming the reason,
 * where Testcontainers finds no Docker engine (its own detection, which
 * {@code @Testcontainers(disabledWithoutDocker = true)} uses too): such a run reports skipped tests, never green ones that ran against no broker. Registered by JUnit's
 * autodetection, which the service pom's {@code testcontainers-kafka} profile switches on for that setting only.
 */
public class ContainerKafkaNeedsDocker implements ExecutionCondition {

    static final String MODE = "cabinet.devservices.kafka";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (!"testcontainers".equals(System.getProperty(MODE, "launcher").trim().toLowerCase(Locale.ROOT))) {
            return ConditionEvaluationResult.enabled("the broker runs without Docker");
        }
        // By name: Quarkus loads test classes in its own class loader, where the annotation is another Class object.
        boolean quarkusTest = context.getTestClass().stream()
                .flatMap(c -> Arrays.stream(c.getAnnotations()))
                .anyMatch(a -> a.annotationType().getName().equals("io.quarkus.test.junit.QuarkusTest"));
        if (!quarkusTest) {
            return ConditionEvaluationResult.enabled("needs no broker");
        }
        return DockerClientFactory.instance().isDockerAvailable()
                ? ConditionEvaluationResult.enabled("Docker is available for the Kafka container")
                : ConditionEvaluationResult.disabled(
                        MODE + "=testcontainers, and Testcontainers finds no Docker engine");
    }
}
