package dev.cabinet.folder;

import static dev.cabinet.folder.FolderProjectorTest.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.Derivation.Derived;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The folder-path derivation's decisions (Derivations runs them against the table; FolderTreeTest end to end). */
class FolderPathsTest {

    private static final FolderPaths PATHS = new FolderPaths();
    private static final Map<String, AttributeValue> PARENT = item("folderId", "p1", "path", "/Top/Docs",
            "ancestorIds", "t1", "rev", 5);

    @Test
    void aFolderBehindItsParentIsWrittenAsACompareAndSetOnTheRevisionItWasReadAt() {
        Map<String, AttributeValue> folder = item("folderId", "f2", "name", "Sub", "parentId", "p1",
                "path", "/Old/Sub", "ancestorIds", "p1", "rev", 3);
        assertEquals(Optional.of(new Key("FOLDER#p1", "METADATA")), PATHS.parent(folder));
        Derived derived = PATHS.derive(folder, Optional.of(PARENT));
        assertEquals("FOLDER#f2/METADATA: SET path = \"/Top/Docs/Sub\", ancestorIds = \"t1/p1\", "
                + "rev = if_not_exists(rev, 0) + 1 IF rev = 3", derived.write().orElseThrow().toString());
    }

    @Test
    void anEntryWithItsRevisionTellsEnoughToWriteTheFolderWithoutReadingIt() {
        Map<String, AttributeValue> entry = item("pk", "FOLDER#p1", "sk", "FOLDER#f2", "folderId", "f2", "name", "Sub",
                "rev", 3);
        Map<String, AttributeValue> folder = PATHS.fromEntry(entry, PARENT).orElseThrow();
        assertEquals(Optional.of(new Key("FOLDER#p1", "METADATA")), PATHS.parent(folder));
        assertEquals("FOLDER#f2/METADATA: SET path = \"/Top/Docs/Sub\", ancestorIds = \"t1/p1\", "
                + "rev = if_not_exists(rev, 0) + 1 IF rev = 3",
                PATHS.derive(folder, Optional.of(PARENT)).write().orElseThrow().toString());
        assertEquals(Optional.empty(), PATHS.fromEntry(item("folderId", "f2", "name", "Sub"), PARENT),
                "an entry no revision was copied to: the folder is read");
    }

    @Test
    void aFolderUpToDateWithItsParentNeedsNoWrite() {
        Map<String, AttributeValue> folder = item("folderId", "f2", "name", "Sub", "parentId", "p1",
                "path", "/Top/Docs/Sub", "ancestorIds", "t1/p1", "rev", 3);
        assertEquals(Derived.upToDate(), PATHS.derive(folder, Optional.of(PARENT)));
    }

    @Test
    void aRootFolderHasNoParentNoEntryAndItsNameAsPath() {
        Map<String, AttributeValue> folder = item("folderId", "f2", "name", "Sub", "path", "/Old", "rev", 0);
        assertEquals(Optional.empty(), PATHS.parent(folder));
        assertEquals(Optional.empty(), PATHS.entry(folder));
        assertEquals("FOLDER#f2/METADATA: SET path = \"/Sub\", ancestorIds = \"\", rev = if_not_exists(rev, 0) + 1 "
                + "IF rev = 0", PATHS.derive(folder, Optional.empty()).write().orElseThrow().toString());
    }

    @Test
    void aFolderInsideItsOwnSubtreeIsLeftAsItIs() {
        Map<String, AttributeValue> folder = item("folderId", "t1", "name", "Top", "parentId", "p1", "rev", 2);
        Derived derived = PATHS.derive(folder, Optional.of(PARENT));
        assertEquals(Optional.empty(), derived.write());
        assertTrue(derived.leftBecause().isPresent());
    }

    @Test
    void theEntryUnderTheParentTakesTheNameOnlyWhereItExistsAndFromALaterRevision() {
        Map<String, AttributeValue> folder = item("folderId", "f2", "name", "Sub", "parentId", "p1", "rev", 3);
        assertEquals("FOLDER#p1/FOLDER#f2: SET name = \"Sub\", rev = 3 IF (attribute_not_exists(rev) OR rev < 3)"
                + " AND attribute_exists(pk)", PATHS.entry(folder).orElseThrow().toString());
        assertEquals(3, PATHS.revision(folder));
    }

    @Test
    void aRenamedFolderKeepsItsParentsPartOfThePathAndTakesTheNewNameLast() {
        assertEquals(Optional.of("/Top/Docs/New"), FolderPaths.renamed("/Top/Docs/Sub", "Sub", "New"));
        assertEquals(Optional.of("/New"), FolderPaths.renamed("/Sub", "Sub", "New"));
        // a path that does not end with the old name (none yet, or a longer last name) is left to the derivation
        assertEquals(Optional.empty(), FolderPaths.renamed("/Top/MySub", "Sub", "New"));
        assertEquals(Optional.empty(), FolderPaths.renamed(null, "Sub", "New"));
    }

    @Test
    void theChildrenAreTheSubfolderEntriesInTheFoldersPartition() {
        assertEquals(KeyQuery.of(Index.TABLE, "FOLDER#f2", SortKeyCondition.beginsWith("FOLDER#"), false),
                PATHS.children(new Key("FOLDER#f2", "METADATA")));
        assertEquals(new Key("FOLDER#c1", "METADATA"), PATHS.childKey(item("folderId", "c1", "name", "Child")));
    }
}
