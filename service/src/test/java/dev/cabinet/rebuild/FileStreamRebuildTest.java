package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.ProjectorLag;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.query.PageRequest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator rebuilds one file's items from its events after they were damaged by hand: the metadata and its entry in
 * the folder come back as the live projection made them, a deleted file stays deleted (its tombstone back, its entry
 * gone), and the folder's other items are untouched.
 */
@QuarkusTest
class FileStreamRebuildTest {

    private static final Duration STORE_WAIT = Duration.ofSeconds(10);

    @Inject
    TableReader table;

    @Inject
    TableWriter writer;

    @Test
    void aDamagedFileAndADeletedOneAreRebuiltFromTheirEventsToWhatTheLiveProjectionMade() {
        String owner = newUserId();
        String folder = as(owner).body(Map.of("name", "Files")).post("/folders").then().statusCode(202)
                .extract().path("id");
        awaitOk("/folders/" + folder);
        String kept = declare(owner, folder, "kept.pdf");
        String gone = declare(owner, folder, "gone.pdf");
        String sibling = declare(owner, folder, "sibling.pdf");
        applied(waiting(owner).delete("/files/" + gone));
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        Map<String, Map<String, AttributeValue>> live = items(folder, kept, gone, sibling);

        // Damage by hand: the kept file's name and its folder entry gone; the deleted file back, tombstone gone.
        Key keptEntry = live.values().stream().map(Key::of)
                .filter(key -> KeyPlan.FOLDER_FILE.matches(key) && key.sk().endsWith(kept)).findFirst().orElseThrow();
        done(writer.update(ItemUpdate.of(KeyPlan.FILE.key(kept)).set(Attributes.NAME, "damaged.pdf")));
        done(writer.delete(keptEntry));
        done(writer.delete(KeyPlan.FILE_TOMBSTONE.key(gone)));
        done(writer.update(ItemUpdate.of(KeyPlan.FILE.key(gone)).set(KeyPlan.TYPE, KeyPlan.FILE.name())
                .set(Attributes.FILE_ID, gone).set(Attributes.NAME, "gone.pdf")));
        assertNotEquals(live, items(folder, kept, gone, sibling), "the damage shows in the table");

        JsonPath rebuilt = asOperator().post("/admin/rebuilds/streams/" + Topics.FILES + "/" + kept).then()
                .statusCode(200).extract().jsonPath();
        asOperator().post("/admin/rebuilds/streams/" + Topics.FILES + "/" + gone).then().statusCode(200)
                .body("stream", equalTo("file " + gone)).body("events", equalTo(2)).body("items", equalTo(1));
        assertEquals(live, items(folder, kept, gone, sibling), "every item as the live projection made it");
        assertEquals("file " + kept, rebuilt.getString("stream"));
        assertEquals(1, rebuilt.getInt("events"));
        assertEquals(2, rebuilt.getInt("items"), "the metadata and the folder's entry");
        given().get("/files/" + kept).then().statusCode(200).body("name", equalTo("kept.pdf"));
        given().get("/files/" + gone).then().statusCode(404);
    }

    /** Declares a file in the folder (pending until its content is stored) and waits until it is projected. */
    private static String declare(String owner, String folder, String name) {
        String fileId = as(owner).body(Map.of("name", name, "size", 3, "contentType", "application/pdf"))
                .post("/folders/" + folder + "/files").then().statusCode(202).extract().path("id");
        awaitOk("/files/" + fileId);
        return fileId;
    }

    /** Every item of the folder's partition and of the files' partitions, by key. */
    private Map<String, Map<String, AttributeValue>> items(String folder, String... files) {
        Map<String, Map<String, AttributeValue>> items = new TreeMap<>();
        List<String> partitions = new ArrayList<>(List.of(KeyPlan.FOLDER.partition(folder)));
        for (String file : files) {
            partitions.add(KeyPlan.FILE.partition(file));
        }
        for (String partition : partitions) {
            KeyQuery query = KeyQuery.of(Index.TABLE, partition, SortKeyCondition.any(), false);
            for (Map<String, AttributeValue> item : done(table.query(query, new PageRequest(100, null))).items()) {
                items.put(Key.of(item).toString(), item);
            }
        }
        return items;
    }

    private static <T> T done(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
