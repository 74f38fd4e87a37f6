package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.newUserId;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.observability.ProjectionProgress;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableDefinition;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Removing the read model of a table no projector writes any more (after a cut-over): every item of the read model
 * goes, a person's name with it, and what the home table holds besides stays; the table answering reads, one reads
 * left a moment ago, and one a projector has just written to, are refused.
 */
@QuarkusTest
class RetiredReadModelPurgeTest {

    @Inject
    DynamoDbAsyncClient dynamo;

    @Test
    void aRetiredTablesReadModelGoesAndItsDataKeysIdempotencyRecordsAndUnknownItemsStay() {
        String table = "cabinet" + "-rebuild-" + Ids.newId().toLowerCase();
        dynamo.createTable(TableDefinition.createTableRequest(table)).join();
        try {
            String user = newUserId();
            Key profile = KeyPlan.USER_PROFILE.key(user);
            Key progress = ProjectionProgress.key(Topics.USERS, 0);
            Key subjectKey = KeyPlan.SUBJECT_KEY.key(user);
            Key idempotency = KeyPlan.IDEMPOTENT_REQUEST.key("r1");
            Key unknown = new Key("SOMETHING#else", "UNKNOWN");
            put(table, profile, KeyPlan.USER_PROFILE.name(), Attributes.NAME, "Ada Lovelace");
            put(table, progress, KeyPlan.PROJECTION_PROGRESS.name(), Attributes.APPLIED_AT,
                    Timestamps.format(Instant.now()));
            put(table, subjectKey, KeyPlan.SUBJECT_KEY.name(), "wrapping", "local");
            put(table, idempotency, KeyPlan.IDEMPOTENT_REQUEST.name(), "state", "complete");
            put(table, unknown, "Unknown", "note", "not the key plan's");

            // Reads left it a moment ago (a cut-over back to the home table): an instance may still read it.
            Map<String, AttributeValue> pointer = new HashMap<>(ActiveTable.pointerKey().toAttributes());
            pointer.put(KeyPlan.TYPE, AttributeValue.fromS(KeyPlan.ACTIVE_READ_MODEL.name()));
            pointer.put(ActiveTable.ATTRIBUTE, AttributeValue.fromS("cabinet"));
            pointer.put("previous", AttributeValue.fromS(table));
            pointer.put("switchedAt", AttributeValue.fromS(Timestamps.format(Instant.now())));
            dynamo.putItem(b -> b.tableName("cabinet").item(pointer)).join();
            try {
                asOperator().post("/admin/rebuilds/" + table + "/purge").then().statusCode(409)
                        .body("detail", containsString("reads moved away from table " + table));
            } finally {
                dynamo.deleteItem(b -> b.tableName("cabinet").key(ActiveTable.pointerKey().toAttributes())).join();
            }
            asOperator().post("/admin/rebuilds/" + table + "/purge").then().statusCode(409)
                    .body("detail", containsString("a projector applied events to table " + table));
            put(table, progress, KeyPlan.PROJECTION_PROGRESS.name(), Attributes.APPLIED_AT,
                    Timestamps.format(Instant.now().minus(Rebuilds.RETIRED).minusSeconds(1)));
            asOperator().post("/admin/rebuilds/" + table + "/purge").then().statusCode(200)
                    .body("table", equalTo(table)).body("active", equalTo("cabinet"))
                    .body("scanned", equalTo(5)).body("deleted", equalTo(2)).body("kept", equalTo(3));

            Set<Key> left = dynamo.scan(b -> b.tableName(table).consistentRead(true)).join().items().stream()
                    .map(Key::of).collect(Collectors.toSet());
            assertEquals(Set.of(subjectKey, idempotency, unknown), left);
        } finally {
            dynamo.deleteTable(b -> b.tableName(table)).join();
        }
    }

    @Test
    void theTableAnsweringReadsAMissingTableAndOthersThanOperatorsAreRefused() {
        asOperator().post("/admin/rebuilds/cabinet/purge").then().statusCode(409)
                .body("detail", containsString("answers reads"));
        asOperator().post("/admin/rebuilds/cabinet-rebuild-" + Ids.newId().toLowerCase() + "/purge").then()
                .statusCode(404);
        asOperator().post("/admin/rebuilds/elsewhere/purge").then().statusCode(400);
        as(newUserId()).post("/admin/rebuilds/cabinet/purge").then().statusCode(403);
    }

    private void put(String table, Key key, String type, String attribute, String value) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributes());
        item.put(KeyPlan.TYPE, AttributeValue.fromS(type));
        item.put(attribute, AttributeValue.fromS(value));
        dynamo.putItem(b -> b.tableName(table).item(item)).join();
    }
}
