package dev.cabinet.capacity;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.TreeSet;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Derivation;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.projection.failure.StoreRecovery;
import dev.cabinet.projection.observability.ProjectionTracing;
import dev.cabinet.table.ModelTables;
import dev.cabinet.table.TableConfig;

/** Runs the capacity model with the application's own projectors, executor settings and JSON mapper. */
@Dependent
class CapacityModels {

    @Inject
    Instance<Projector<?>> projectors;
    @Inject
    Instance<Derivation> derivations;
    @Inject
    ProjectionConfig projection;
    @Inject
    TableConfig table;
    @Inject
    StoreRecovery recovery;
    @Inject
    ProjectionTracing tracing;
    @Inject
    ObjectMapper json;

    /** The model's figures for the current code, from a fresh model store. */
    CapacityModel.Result run() {
        return run(Scenario.steps());
    }

    /** The model's figures for these steps, from a fresh model store. */
    CapacityModel.Result run(List<Scenario.Step> steps) {
        ModelStore store = new ModelStore();
        return new CapacityModel(store, projection(store), json).run(steps);
    }

    /** The application's projectors and executor over {@code store}. */
    ModelProjection projection(ModelStore store) {
        return new ModelProjection(ModelTables.writer(store, table), projectors, derivations, projection, recovery,
                tracing);
    }

    /** Every event type a projector reads, superseded versions included. */
    Set<String> typeNames() {
        return typeNames(type -> true);
    }

    /** Every current event type a projector reads: a superseded version is applied as its successor. */
    Set<String> currentTypeNames() {
        return typeNames(type -> !type.isSuperseded());
    }

    private Set<String> typeNames(Predicate<EventType<?>> which) {
        Set<String> names = new TreeSet<>();
        projectors.forEach(projector -> projector.eventTypes().stream().filter(which)
                .forEach(type -> names.add(type.name())));
        return names;
    }
}
