package dev.cabinet.folder;

import static dev.cabinet.folder.FolderProjectorTest.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.execution.Rounds;
import dev.cabinet.projection.execution.StreamProgress;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** The file projector's decisions, event type by event type, without a table. */
class FileProjectorTest {

    private static final FileProjector PROJECTOR = new FileProjector();
    private static final String AT = "2026-06-01T10:00:00.000Z";
    private static final String STORED_AT = "2026-06-01T10:00:05.000Z";
    private static final Key FOLDER = new Key("FOLDER#d1", "METADATA");
    private static final FileUploaded UPLOADED = new FileUploaded("f1", "d1", "a.pdf", 1234, "application/pdf",
            "s3://bucket/f1", AT, "u1");

    @Test
    void anUploadCreatesTheFileAndListsItInItsFolder() {
        StreamTarget target = PROJECTOR.target(UPLOADED);
        assertTrue(target.creates());
        assertEquals(new Key("FILE#f1", "METADATA"), target.root());
        assertEquals(new Key("FILE#f1", "TOMBSTONE"), target.tombstone());
        assertEquals(List.of(), PROJECTOR.needs(UPLOADED));
        assertEquals(List.of(), PROJECTOR.existenceNeeds(UPLOADED), "not even whether its folder exists yet");
        assertEquals("onRoot(FILE#f1/METADATA: SET type = \"File\", fileId = \"f1\", name = \"a.pdf\", "
                + "folderId = \"d1\", size = 1234, contentType = \"application/pdf\", contentUrl = \"s3://bucket/f1\", "
                + "uploadedAt = \"" + AT + "\", ownerId = \"u1\", status = \"pending\") then [Write[update=FOLDER#d1/FILE#"
                + AT + "#f1: SET type = \"FolderFile\", fileId = \"f1\", name = \"a.pdf\", size = 1234, "
                + "contentType = \"application/pdf\", uploadedAt = \"" + AT + "\", status = \"pending\"]]",
                PROJECTOR.decide(UPLOADED, new Reads(Optional.empty(), Map.of())).toString());
    }

    /**
     * An upload reads nothing but its own stream, so its folder entry goes out with the file's recording, one round
     * instead of two; the entry's folder is never deleted, so it never lists a file in a folder that went.
     */
    @Test
    void anUploadsFolderEntryGoesOutWithItsRecording() {
        StreamTarget target = PROJECTOR.target(UPLOADED);
        WritePlan plan = PROJECTOR.decide(UPLOADED, new Reads(Optional.empty(), Map.of()));
        assertTrue(Rounds.recordsWithWrites(target, plan, PROJECTOR.needs(UPLOADED)));
        assertFalse(Rounds.recordsWithWrites(target, plan, List.of(FOLDER)), "a read of the folder would wait");
        IllegalArgumentException deletion = assertThrows(IllegalArgumentException.class,
                () -> new WritePlan.Delete(FOLDER));
        assertTrue(deletion.getMessage().contains("Folder items are never deleted"), deletion.getMessage());
    }

    @Test
    void aDeletionLeavesTheFilesTombstoneAndRemovesItsFolderEntry() {
        FileDeleted deleted = new FileDeleted("f1", "s3://bucket/f1");
        StreamTarget target = PROJECTOR.target(deleted);
        assertFalse(target.creates());
        assertEquals(new Key("FILE#f1", "TOMBSTONE"), target.tombstone());
        assertEquals(List.of(), PROJECTOR.needs(deleted));
        WritePlan plan = PROJECTOR.decide(deleted, new Reads(Optional.of(item("fileId", "f1", "folderId", "d1",
                "uploadedAt", AT)), Map.of()));
        assertTrue(plan.deletesRoot());
        assertEquals("deleting(FILE#f1/TOMBSTONE: SET type = \"FileTombstone\", fileId = \"f1\") then "
                + "[Delete[key=FOLDER#d1 / FILE#" + AT + "#f1]]", plan.toString());
        assertTrue(Rounds.deletesRootEarly(target, plan.steps()), "the root goes with the folder entry");
    }

    /** A step that may look at the root after the writes keeps the root's delete last, as does a missing tombstone. */
    @Test
    void theRootGoesWithTheFirstDeletesOnlyWhenNothingLooksAtItAfterwards() {
        FileDeleted deleted = new FileDeleted("f1", "s3://bucket/f1");
        StreamTarget target = PROJECTOR.target(deleted);
        Key root = target.root();
        Key entry = new Key("FOLDER#d1", "FILE#" + AT + "#f1");
        assertTrue(Rounds.deletesRootEarly(target, List.of(new WritePlan.Delete(entry))));
        assertFalse(Rounds.deletesRootEarly(target, List.of(new WritePlan.Delete(entry),
                new WritePlan.Count(FOLDER, KeyPlan.FOLDER, "fileCount", -1, root, "uncounted"))),
                "a count whose marker is the root reads it after the first writes");
        assertFalse(Rounds.deletesRootEarly(target, List.of(
                new WritePlan.Count(root, KeyPlan.FILE, "fileCount", -1, entry, "uncounted"))),
                "a count on the root would make a stub of it");
        assertTrue(Rounds.deletesRootEarly(target, List.of(
                new WritePlan.Count(FOLDER, KeyPlan.FOLDER, "fileCount", -1, entry, "uncounted"))));
        assertFalse(Rounds.deletesRootEarly(target, List.of(new WritePlan.OrphanCheck(FOLDER, List.of(entry)))));
        assertFalse(Rounds.deletesRootEarly(StreamTarget.of(KeyPlan.FOLDER_STREAM, "d1"),
                List.of(new WritePlan.Delete(entry))), "no tombstone to redo it from");
    }

    @Test
    void aStoredUploadMarksTheFileAndItsFolderEntryStored() {
        FileStored stored = new FileStored("f1", 1234, "application/pdf", STORED_AT);
        StreamTarget target = PROJECTOR.target(stored);
        assertFalse(target.creates());
        assertEquals(new Key("FILE#f1", "METADATA"), target.root());
        assertEquals(List.of(), PROJECTOR.needs(stored));
        assertEquals("onRoot(FILE#f1/METADATA: SET type = \"File\", fileId = \"f1\", status = \"stored\", "
                + "storedAt = \"" + STORED_AT + "\") then [Write[update=FOLDER#d1/FILE#" + AT + "#f1: "
                + "SET type = \"FolderFile\", fileId = \"f1\", uploadedAt = \"" + AT + "\", status = \"stored\"]]",
                PROJECTOR.decide(stored, new Reads(Optional.of(item("fileId", "f1", "folderId", "d1", "uploadedAt", AT)),
                        Map.of())).toString());
    }

    /** Two confirmations sent before the first was projected: the second changes nothing, not even the time. */
    @Test
    void aSecondStoredUploadLeavesTheFileAsTheFirstStoredIt() {
        FileStored again = new FileStored("f1", 1234, "application/pdf", "2026-06-01T10:00:09.000Z");
        assertEquals("onRoot(null) then []", PROJECTOR.decide(again, new Reads(Optional.of(item("fileId", "f1",
                "folderId", "d1", "uploadedAt", AT, "status", "stored", "storedAt", STORED_AT)), Map.of())).toString());
    }

    @Test
    void anUploadDeliveredAgainAfterTheFilesDeletionIsSkippedNotAppliedAgain() {
        // Uploaded at offset 5, deleted at offset 9: the executor finds no root, and at the stream's tombstone key
        // (when the key plan declares one) the deletion's offset.
        StreamTarget target = PROJECTOR.target(UPLOADED);
        var tombstone = Optional.ofNullable(target.tombstone())
                .map(key -> item("fileId", "f1", KeyPlan.FILE_STREAM.versionAttribute(), 9));
        StreamProgress redelivered = StreamProgress.of(target, Optional.empty(), tombstone, "e5", 5);
        assertEquals(StreamProgress.Kind.DONE, redelivered.kind(), "without the tombstone the file would come back");
    }
}
