package dev.cabinet.folder;

import static dev.cabinet.folder.FolderApiTest.createFolder;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.Concurrently;
import dev.cabinet.support.ProjectorLag;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A tree four levels deep with 155 descendants (more than one page of a fan-out's walk, cabinet.projection.fan-out-page-size
 * 100): renames and moves at different levels, sent at the same time, must leave every folder's path equal to its
 * ancestors' names, whatever order the fan-outs ran in.
 */
@QuarkusTest
class FolderTreeTest {

    private static final Duration TREE_WAIT = Duration.ofMinutes(3);

    private final Map<String, String> names = new ConcurrentHashMap<>();
    private final Map<String, String> parents = new ConcurrentHashMap<>();

    @Test
    void renamesAndMovesReachThePathOfEveryDescendant() {
        String owner = newUserId();
        String root = folder(owner, "Root", null);
        String otherRoot = folder(owner, "Archive", null);
        awaitPaths(List.of(root, otherRoot));
        List<String> level1 = children(owner, List.of(root), 5, "A");
        List<String> level2 = children(owner, level1, 5, "B");
        List<String> level3 = children(owner, level2, 5, "C");
        assertEquals(155, level1.size() + level2.size() + level3.size());

        // At the same time: the root is renamed, a first-level folder is renamed, and another moves to the archive.
        rename(owner, root, "Root renamed");
        rename(owner, level1.get(1), "A renamed");
        move(owner, level1.get(0), otherRoot);
        as(owner).body(Map.of("parentId", level3.get(0))).patch("/folders/" + root).then().statusCode(409);

        List<String> all = new ArrayList<>(names.keySet());
        ProjectorLag.awaitCaughtUp(TREE_WAIT);
        await().atMost(TREE_WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertEquals(List.of(), wrongPaths(all), "folders whose path is not their ancestors' names");
        });
        Map<String, Object> deepest = given().get("/folders/" + level3.get(0)).then().statusCode(200).extract().jsonPath()
                .getMap("");
        assertEquals(expectedPath(level3.get(0)), deepest.get("path"));
        assertEquals(List.of(otherRoot, level1.get(0), level2.get(0)), deepest.get("ancestorIds"));
    }

    private String folder(String owner, String name, String parentId) {
        String id = createFolder(owner, name, parentId);
        names.put(id, name);
        if (parentId != null) {
            parents.put(id, parentId);
        }
        return id;
    }

    /** Creates {@code count} children under each parent, in parallel, and waits until they can be read. */
    private List<String> children(String owner, List<String> parentIds, int count, String prefix) {
        List<String> created = Concurrently.map(parentIds.stream()
                .flatMap(parent -> IntStream.range(0, count).mapToObj(i -> List.of(parent, prefix + i)))
                .collect(Collectors.toList()), child -> folder(owner, child.get(1), child.get(0)));
        awaitPaths(created);
        return created;
    }

    /**
     * Waits for the projector first and reads the folders after: hundreds of reads at every poll would take the
     * machine's cores from the projector they wait for.
     */
    private void awaitPaths(List<String> ids) {
        ProjectorLag.awaitCaughtUp(TREE_WAIT);
        await().atMost(TREE_WAIT).untilAsserted(() -> assertEquals(List.of(), wrongPaths(ids)));
    }

    /** The folders whose path, as read now, is not their ancestors' names. */
    private List<String> wrongPaths(List<String> ids) {
        List<Boolean> right = Concurrently.map(ids,
                id -> expectedPath(id).equals(given().get("/folders/" + id).path("path")));
        return IntStream.range(0, ids.size()).filter(i -> !right.get(i)).mapToObj(ids::get)
                .collect(Collectors.toList());
    }

    private void rename(String owner, String id, String name) {
        as(owner).body(Map.of("name", name)).patch("/folders/" + id).then().statusCode(202);
        names.put(id, name);
    }

    private void move(String owner, String id, String parentId) {
        as(owner).body(Map.of("parentId", parentId)).patch("/folders/" + id).then().statusCode(202);
        parents.put(id, parentId);
    }

    private String expectedPath(String id) {
        String parent = parents.get(id);
        return (parent == null ? "" : expectedPath(parent)) + "/" + names.get(id);
    }
}
