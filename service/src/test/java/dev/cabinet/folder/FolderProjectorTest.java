package dev.cabinet.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.projection.Reads;
import dev.cabinet.table.AttributeValues;
import dev.cabinet.table.Key;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The folder projector's decisions, event type by event type, without a table. */
class FolderProjectorTest {

    private static final FolderProjector PROJECTOR = new FolderProjector();
    private static final String AT = "2026-06-01T10:00:00.000Z";
    private static final String DERIVE = "Derive[derivation=folder-path, key=FOLDER#f2 / METADATA, passDown=true, "
            + "derivedFrom=null]";
    /** A created folder passes its path down, when its batch ends, to subfolders a replay brought before it. */
    private static final String CHILDREN = "DeriveChildren[derivation=folder-path, key=FOLDER#f2 / METADATA]";

    /**
     * A new subfolder's path, written from its parent as read, checked against the parent when the batch ends: off the
     * event's path, so its writes go out with its recording.
     */
    private static String checkedUnder(String parentId) {
        return "Derive[derivation=folder-path, key=FOLDER#f2 / METADATA, passDown=false, derivedFrom=FOLDER#" + parentId
                + " / METADATA]";
    }

    @Test
    void aRootFolderIsCreatedWithItsNameAsPathAndNoAncestorsWithNothingToDerive() {
        FolderCreated created = new FolderCreated("f2", "Docs", null, "u1", AT);
        assertTrue(PROJECTOR.target(created).creates());
        assertEquals(new Key("FOLDER#f2", "METADATA"), PROJECTOR.target(created).root());
        assertEquals(List.of(), PROJECTOR.needs(created));
        assertEquals("onRoot(FOLDER#f2/METADATA: SET type = \"Folder\", folderId = \"f2\", name = \"Docs\", "
                + "path = \"/Docs\", ancestorIds = \"\", ownerId = \"u1\", createdAt = \"" + AT + "\", "
                + "rev = if_not_exists(rev, 0)) then [" + CHILDREN + "]",
                PROJECTOR.decide(created, new Reads(Optional.empty(), Map.of())).toString());
    }

    @Test
    void aSubfolderTakesItsParentsPathAndAncestorsAndIsListedUnderTheParent() {
        FolderCreated created = new FolderCreated("f2", "Sub", "p1", "u1", AT);
        Key parent = new Key("FOLDER#p1", "METADATA");
        assertEquals(List.of(parent), PROJECTOR.needs(created));
        Reads reads = new Reads(Optional.empty(), Map.of(parent, Optional.of(item(
                "folderId", "p1", "path", "/Top/Docs", "ancestorIds", "t1"))));
        assertEquals("onRoot(FOLDER#f2/METADATA: SET type = \"Folder\", folderId = \"f2\", name = \"Sub\", "
                + "parentId = \"p1\", path = \"/Top/Docs/Sub\", ancestorIds = \"t1/p1\", ownerId = \"u1\", "
                + "createdAt = \"" + AT + "\", rev = if_not_exists(rev, 0)) then ["
                + "Write[update=FOLDER#p1/FOLDER#f2: SET type = \"Subfolder\", folderId = \"f2\", name = \"Sub\", "
                + "rev = 0], "
                + checkedUnder("p1") + ", " + CHILDREN + "]", PROJECTOR.decide(created, reads).toString());
    }

    /**
     * A replay can bring a subfolder before its parent: it is written under the parent with its own name as its path
     * until the parent's creation passes its path down, not refused (which would lose it from the rebuilt table).
     */
    @Test
    void aFolderUnderAParentNotThereYetIsWrittenWithItsNameAsPathAndListedUnderTheParent() {
        FolderCreated created = new FolderCreated("f2", "Sub", "p9", "u1", AT);
        assertEquals("onRoot(FOLDER#f2/METADATA: SET type = \"Folder\", folderId = \"f2\", name = \"Sub\", "
                + "parentId = \"p9\", path = \"/Sub\", ancestorIds = \"\", ownerId = \"u1\", "
                + "createdAt = \"" + AT + "\", rev = if_not_exists(rev, 0)) then ["
                + "Write[update=FOLDER#p9/FOLDER#f2: SET type = \"Subfolder\", folderId = \"f2\", name = \"Sub\", "
                + "rev = 0], "
                + checkedUnder("p9") + ", " + CHILDREN + "]", PROJECTOR.decide(created,
                new Reads(Optional.empty(), Map.of(new Key("FOLDER#p9", "METADATA"), Optional.empty()))).toString());
    }

    /** Another producer's folder created as its own parent is rejected: it would list itself, and loop. */
    @Test
    void aFolderCreatedAsItsOwnParentIsRejected() {
        FolderCreated created = new FolderCreated("f2", "Loop", "f2", "u1", AT);
        assertEquals("reject(folder f2 cannot be its own parent)", PROJECTOR.decide(created,
                new Reads(Optional.empty(), Map.of(new Key("FOLDER#f2", "METADATA"), Optional.empty()))).toString());
    }

    /**
     * A rename writes the new name and the path it gives in one write (the parent's part of the path is in the old
     * one), then the derivation, which finds the folder up to date, passes the path down to the subfolders.
     */
    @Test
    void aRenameWritesTheNameAndItsPathInOneWriteThenPassesThePathDown() {
        FolderRenamed renamed = new FolderRenamed("f2", "Renamed");
        assertFalse(PROJECTOR.target(renamed).creates());
        assertEquals(List.of(), PROJECTOR.needs(renamed));
        Map<String, AttributeValue> folder = new java.util.HashMap<>(folder("p1"));
        folder.put("path", AttributeValues.of("/Top/Sub"));
        assertEquals("onRoot(FOLDER#f2/METADATA: SET name = \"Renamed\", rev = if_not_exists(rev, 0) + 1, "
                + "path = \"/Top/Renamed\") then [Derive[derivation=folder-path, key=FOLDER#f2 / METADATA, "
                + "passDown=true, derivedFrom=null]]", PROJECTOR.decide(renamed, new Reads(Optional.of(folder), Map.of())).toString());
    }

    /** A rename to the name it has changes no path below it: nothing is passed down (no walk of the subtree). */
    @Test
    void aRenameToTheSameNamePassesNothingDown() {
        Map<String, AttributeValue> folder = new java.util.HashMap<>(folder("p1"));
        folder.put("path", AttributeValues.of("/Top/Sub"));
        assertEquals("onRoot(FOLDER#f2/METADATA: SET name = \"Sub\", rev = if_not_exists(rev, 0) + 1, "
                + "path = \"/Top/Sub\") then [Derive[derivation=folder-path, key=FOLDER#f2 / METADATA, "
                + "passDown=false, derivedFrom=null]]",
                PROJECTOR.decide(new FolderRenamed("f2", "Sub"), new Reads(Optional.of(folder), Map.of())).toString());
    }

    /** A folder whose path does not end with its name (none recorded) is renamed; the derivation writes its path. */
    @Test
    void aRenameOfAFolderWithoutAPathLeavesThePathToTheDerivation() {
        assertEquals("onRoot(FOLDER#f2/METADATA: SET name = \"Renamed\", rev = if_not_exists(rev, 0) + 1) then "
                + "[Derive[derivation=folder-path, key=FOLDER#f2 / METADATA, passDown=true, derivedFrom=null]]",
                PROJECTOR.decide(new FolderRenamed("f2", "Renamed"), new Reads(Optional.of(folder("p1")), Map.of()))
                        .toString());
    }

    @Test
    void aMoveWritesTheNewParentAndPathListsTheFolderThereAndRemovesItsOldEntryThenPassesThePathDown() {
        FolderMoved moved = new FolderMoved("f2", "p2");
        Key parent = new Key("FOLDER#p2", "METADATA");
        assertFalse(PROJECTOR.target(moved).creates());
        assertEquals(List.of(parent), PROJECTOR.needs(moved));
        Reads reads = new Reads(Optional.of(folder("p1")), Map.of(parent, Optional.of(item(
                "folderId", "p2", "path", "/Other", "ancestorIds", ""))));
        assertEquals("onRoot(FOLDER#f2/METADATA: SET parentId = \"p2\", path = \"/Other/Sub\", ancestorIds = \"p2\", "
                + "rev = if_not_exists(rev, 0) + 1) then ["
                + "Write[update=FOLDER#p2/FOLDER#f2: SET type = \"Subfolder\", folderId = \"f2\", name = \"Sub\"], "
                + "Delete[key=FOLDER#p1 / FOLDER#f2], " + DERIVE + "]", PROJECTOR.decide(moved, reads).toString());
    }

    /** A move that leaves the path and ancestors as they were (under the same parent) passes nothing down. */
    @Test
    void aMoveThatLeavesThePathAsItWasPassesNothingDown() {
        Key parent = new Key("FOLDER#p1", "METADATA");
        Reads reads = new Reads(Optional.of(item("folderId", "f2", "name", "Sub", "parentId", "p1", "rev", 1,
                "path", "/Docs/Sub", "ancestorIds", "p1")),
                Map.of(parent, Optional.of(item("folderId", "p1", "path", "/Docs", "ancestorIds", ""))));
        String plan = PROJECTOR.decide(new FolderMoved("f2", "p1"), reads).toString();
        assertTrue(plan.contains("path = \"/Docs/Sub\"") && plan.contains("passDown=false"), plan);
    }

    @Test
    void aMoveOfARootFolderOrUnderTheSameParentHasNoEntryToRemove() {
        Key parent = new Key("FOLDER#p1", "METADATA");
        Reads underP1 = new Reads(Optional.of(folder("p1")), Map.of(parent, Optional.of(item("folderId", "p1"))));
        Reads atTop = new Reads(Optional.of(folder(null)), Map.of(parent, Optional.of(item("folderId", "p1"))));
        for (Reads reads : List.of(underP1, atTop)) {
            String plan = PROJECTOR.decide(new FolderMoved("f2", "p1"), reads).toString();
            assertFalse(plan.contains("Delete"), plan);
            assertTrue(plan.contains("Write[update=FOLDER#p1/FOLDER#f2"), plan);
        }
    }

    @Test
    void aMoveUnderAParentThatDoesNotExistIsRejected() {
        assertEquals("reject(parent folder p9 does not exist)", PROJECTOR.decide(new FolderMoved("f2", "p9"),
                new Reads(Optional.of(folder("p1")), Map.of(new Key("FOLDER#p9", "METADATA"), Optional.empty())))
                .toString());
    }

    @Test
    void aMoveUnderTheFolderItselfOrOneOfItsDescendantsIsRejected() {
        Key descendant = new Key("FOLDER#d1", "METADATA");
        Reads underDescendant = new Reads(Optional.of(folder("p1")), Map.of(descendant, Optional.of(item(
                "folderId", "d1", "ancestorIds", "t1/f2/c1"))));
        assertEquals("reject(folder f2 cannot move under itself or a descendant)",
                PROJECTOR.decide(new FolderMoved("f2", "d1"), underDescendant).toString());
        Key itself = new Key("FOLDER#f2", "METADATA");
        Reads underItself = new Reads(Optional.of(folder("p1")), Map.of(itself, Optional.of(folder("p1"))));
        assertEquals("reject(folder f2 cannot move under itself or a descendant)",
                PROJECTOR.decide(new FolderMoved("f2", "f2"), underItself).toString());
    }

    /** Folder f2, named Sub, under {@code parentId} (null: at the top). */
    private static Map<String, AttributeValue> folder(String parentId) {
        return parentId == null ? item("folderId", "f2", "name", "Sub", "rev", 1)
                : item("folderId", "f2", "name", "Sub", "parentId", parentId, "rev", 1);
    }

    static Map<String, AttributeValue> item(Object... namesAndValues) {
        Map<String, AttributeValue> item = new java.util.HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            item.put((String) namesAndValues[i], AttributeValues.of(namesAndValues[i + 1]));
        }
        return item;
    }
}
