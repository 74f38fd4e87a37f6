package dev.cabinet.table;

import dev.cabinet.shared.Ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** The startup check against real tables in the store: the one Cabinet made, one made without a GSI, a missing one. */
@QuarkusTest
class TableVerificationTest {

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    TableConfig config;

    @Test
    void theTableCabinetCreatedMatchesTheKeyPlan() {
        assertEquals(List.of(), TableVerifier.differences(describe(config.name())));
    }

    @Test
    void aTableWithoutTheSecondGsiIsReportedByName() {
        String name = "cabinet-wrong-" + Ids.newId();
        CreateTableRequest full = TableDefinition.createTableRequest(name);
        dynamo.createTable(full.toBuilder()
                .globalSecondaryIndexes(full.globalSecondaryIndexes().stream()
                        .filter(gsi -> !gsi.indexName().equals("gsi2")).collect(Collectors.toList()))
                .attributeDefinitions(full.attributeDefinitions().stream()
                        .filter(a -> !a.attributeName().startsWith("gsi2")).collect(Collectors.toList()))
                .build()).join();
        try {
            List<String> differences = TableVerifier.differences(describe(name));
            assertEquals(1, differences.size(), differences.toString());
            assertTrue(differences.get(0).contains("GSI gsi2 is missing"), differences.get(0));
        } finally {
            dynamo.deleteTable(b -> b.tableName(name)).join();
        }
    }

    @Test
    void startingAgainstAMissingTableFailsFastAndSaysHowToFixIt() {
        String missing = "cabinet-missing-" + Ids.newId();
        TableBootstrap bootstrap = new TableBootstrap(dynamo, new TableConfig() {
            @Override
            public String name() {
                return missing;
            }

            @Override
            public boolean createIfMissing() {
                return false;
            }

            @Override
            public java.util.Optional<String> projectionTarget() {
                return java.util.Optional.empty();
            }

            @Override
            public java.time.Duration activeRefresh() {
                return java.time.Duration.ofSeconds(5);
            }

            @Override
            public int readsInFlight() {
                return 4;
            }

            @Override
            public java.time.Duration indexWait() {
                return java.time.Duration.ofSeconds(30);
            }
        });
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> bootstrap.onStart(null));
        assertTrue(failure.getMessage().contains("'" + missing + "' does not exist"), failure.getMessage());
        assertTrue(failure.getMessage().contains("cabinet.table.create-if-missing=true"), failure.getMessage());
    }

    private TableDescription describe(String name) {
        return dynamo.describeTable(b -> b.tableName(name)).join().table();
    }
}
