package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.post.FeedConfig;
import dev.cabinet.customer.OrdersConfig;
import dev.cabinet.projection.Derivation;
import dev.cabinet.projection.ModelProjection;
import dev.cabinet.projection.ProjectionConfig;
import dev.cabinet.projection.ProjectionTracing;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.StoreRecovery;
import dev.cabinet.table.ModelTables;
import dev.cabinet.table.Shards;
import dev.cabinet.table.TableConfig;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * docs/capacity.md, and the same figures for the Dev UI, are the capacity model of the code as it is: the scenario run
 * through the real projectors and executor over the model's store. Fails when either committed file is stale;
 * {@code -Dcabinet.docs.write=true} rewrites both.
 */
@QuarkusTest
class CapacityModelTest {

    static final Path DOCUMENT = Path.of("..", "docs", "capacity.md");
    static final Path DEV_UI = Path.of("src", "main", "resources", "META-INF", "cabinet", "capacity.json");
    private static final String REGENERATE = "./mvnw -pl service test -Dtest=CapacityModelTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dcabinet.docs.write=true";

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
    @Inject
    FeedConfig feed;
    @Inject
    OrdersConfig orders;
    @ConfigProperty(name = Shards.COUNTER_SHARDS, defaultValue = Shards.DEFAULT_COUNTER_SHARDS)
    int counterShards;

    /** The model's figures for the current code. */
    CapacityModel.Result model() {
        ModelStore store = new ModelStore();
        ModelProjection executor = new ModelProjection(ModelTables.writer(store, table), projectors, derivations,
                projection, recovery, tracing);
        return new CapacityModel(store, executor, json).run();
    }

    @Test
    void docsCapacityMdIsTheModelOfTheCurrentCode() throws IOException {
        CapacityModel.Result result = model();
        CapacityDocument document = new CapacityDocument(result, new CapacityDocument.Shards(counterShards,
                feed.shards(), orders.shards()));
        String markdown = document.markdown();
        String devUi = document.json(json);
        if (Boolean.getBoolean("cabinet.docs.write")) {
            Files.writeString(DOCUMENT, markdown, StandardCharsets.UTF_8);
            Files.createDirectories(DEV_UI.getParent());
            Files.writeString(DEV_UI, devUi, StandardCharsets.UTF_8);
        }
        assertEquals(Files.exists(DOCUMENT) ? Files.readString(DOCUMENT, StandardCharsets.UTF_8) : "", markdown,
                "docs/capacity.md is stale: regenerate it with " + REGENERATE);
        assertEquals(Files.exists(DEV_UI) ? Files.readString(DEV_UI, StandardCharsets.UTF_8) : "", devUi,
                "the Dev UI's capacity figures are stale: regenerate them with " + REGENERATE);
    }
}
