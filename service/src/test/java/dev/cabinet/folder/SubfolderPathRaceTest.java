package dev.cabinet.folder;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.BatchEndChecks;
import dev.cabinet.projection.execution.Derivations;
import dev.cabinet.projection.execution.DecidedPlans;
import dev.cabinet.projection.execution.PlanExecutor;
import dev.cabinet.projection.execution.Rounds;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Races between a folder's derivation and the changes it derives from, forced. A new subfolder writes the path it
 * derived from its parent as read, with its recording, and checks it against the parent when its batch ends: the parent
 * renamed after the subfolder's plan was decided and before it is written (the rename's walk of the parent's entries
 * cannot find the subfolder, no entry yet), the check must see the new name and repair the path. And a derivation that
 * refreshes a folder's entry under its parent from the folder as it was read must not take the entry's name back when
 * the folder was renamed since (a walk's late look, or an instance still finishing a batch after its partition moved).
 */
@QuarkusTest
class SubfolderPathRaceTest {

    @Inject
    FolderProjector projector;

    @Inject
    PlanExecutor executor;

    @Inject
    BatchEndChecks checks;

    @Inject
    TableWriter store;

    @Inject
    Derivations derivations;

    @Test
    void aSubfolderWrittenJustAfterItsParentsRenameTakesTheNewPathFromItsCheck() {
        String owner = newUserId();
        String parentId = FolderApiTest.createFolder(owner, "Before", null);
        Key parent = KeyPlan.FOLDER.key(parentId);
        await().atMost(PROJECTION_WAIT).until(() -> store.read(parent).await().indefinitely().isPresent());
        Optional<Map<String, AttributeValue>> asRead = store.read(parent).await().indefinitely();

        String folderId = Ids.newId();
        FolderCreated created = new FolderCreated(folderId, "Sub", parentId, owner, Timestamps.format(Instant.now()));
        WritePlan plan = projector.decide(created, new Reads(Optional.empty(), Map.of(parent, asRead)));
        assertTrue(Rounds.recordsWithWrites(projector.target(created), plan, projector.needs(created)),
                "the parent is read only to derive the path from: the entry goes out with the recording");
        ReceivedEvent event = new ReceivedEvent(Ids.newId(), FolderEvent.CREATED.name(), folderId, owner,
                Instant.now(), created, new LogPosition(Topics.FOLDERS, 0, 0));

        as(owner).body(Map.of("name", "After")).patch("/folders/" + parentId).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/folders/" + parentId).then()
                .body("path", equalTo("/After")));
        DecidedPlans.carryOut(executor, projector.target(created), event, plan, Optional.empty(),
                projector.needs(created))
                .chain(() -> Uni.createFrom().completionStage(checks::settled))   // its batch's end
                .await().atMost(Duration.ofSeconds(60));

        Map<String, AttributeValue> folder = store.read(KeyPlan.FOLDER.key(folderId)).await().indefinitely()
                .orElseThrow();
        assertEquals("/After/Sub", folder.get("path").s());
        assertEquals(parentId, folder.get("ancestorIds").s());
    }

    @Test
    void aRefreshOfAnEntryFromItsFolderAsItWasBeforeARenameLeavesTheNewName() {
        String owner = newUserId();
        String parentId = FolderApiTest.createFolder(owner, "Parent", null);
        await().atMost(PROJECTION_WAIT).until(() -> store.read(KeyPlan.FOLDER.key(parentId)).await().indefinitely()
                .isPresent());
        String folderId = FolderApiTest.createFolder(owner, "Old", parentId);
        Key folder = KeyPlan.FOLDER.key(folderId);
        Key entry = KeyPlan.SUBFOLDER.key(parentId, folderId);
        await().atMost(PROJECTION_WAIT).until(() -> "Old".equals(name(entry)));
        Map<String, AttributeValue> beforeRename = store.read(folder).await().indefinitely().orElseThrow();

        as(owner).body(Map.of("name", "New")).patch("/folders/" + folderId).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> "New".equals(name(entry)));
        derivations.run(FolderPaths.NAME, folder, Optional.of(beforeRename), false, false)
                .await().atMost(Duration.ofSeconds(60));

        assertEquals("New", name(entry), "the entry's name after a late refresh from the folder as it was");
        assertEquals("/Parent/New", store.read(folder).await().indefinitely().orElseThrow().get("path").s());
    }

    private String name(Key entry) {
        return store.read(entry).await().indefinitely().map(item -> item.get("name").s()).orElse(null);
    }
}
