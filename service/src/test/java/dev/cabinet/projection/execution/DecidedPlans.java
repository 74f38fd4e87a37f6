package dev.cabinet.projection.execution;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.table.Key;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Carries out a plan a test decided itself, from reads it made earlier: how the race tests put another event's writes
 * between a decision and its own (the executor's {@code carryOut} is not part of its public API).
 */
public final class DecidedPlans {

    private DecidedPlans() {
    }

    public static Uni<Void> carryOut(PlanExecutor executor, StreamTarget target, ReceivedEvent event, WritePlan plan,
            Optional<Map<String, AttributeValue>> root, List<Key> read) {
        return executor.carryOut(target, event, plan, root, read);
    }
}
