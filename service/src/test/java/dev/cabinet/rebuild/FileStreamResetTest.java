package dev.cabinet.rebuild;

import static dev.cabinet.rebuild.RecordedEvents.event;
import static dev.cabinet.rebuild.RecordedEvents.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Which items a file stream's rebuild resets: its partition and its entry in its folder, not the folder (no I/O). */
class FileStreamResetTest {

    private static final FileStreamReset RESET = new FileStreamReset();
    private static final String AT = "2026-06-01T10:00:00.000Z";
    private static final List<RecordedEvent> EVENTS = List.of(
            event(Topics.FILES, "f1", 0, "e-uploaded", "{\"fileId\":\"f1\",\"folderId\":\"d1\",\"name\":\"a.pdf\","
                    + "\"size\":3,\"contentType\":\"application/pdf\",\"contentUrl\":\"s3://b/k\",\"uploadedAt\":\""
                    + AT + "\",\"ownerId\":\"ann\"}"),
            event(Topics.FILES, "f1", 1, "e-stored", "{\"fileId\":\"f1\",\"size\":3,\"contentType\":\"application/pdf\","
                    + "\"storedAt\":\"" + AT + "\"}"),
            event(Topics.FILES, "f1", 2, "e-deleted", "{\"fileId\":\"f1\",\"contentUrl\":\"s3://b/k\"}"));

    @Test
    void theFilesItemsAndItsFolderEntryAreDeletedAndNoCountIsHeld() {
        List<Map<String, AttributeValue>> partition = List.of(
                item(KeyPlan.FILE.key("f1"), Attributes.NAME, "a.pdf"),
                item(KeyPlan.FILE_TOMBSTONE.key("f1"), Attributes.FILE_ID, "f1"),
                item(KeyPlan.FILE.key("f2"), Attributes.NAME, "another file's"));

        StreamReset.Reset reset = RESET.reset("f1", partition, EVENTS);

        assertEquals(List.of(KeyPlan.FILE.key("f1"), KeyPlan.FILE_TOMBSTONE.key("f1"),
                KeyPlan.FOLDER_FILE.key("d1", AT, "f1")), reset.deletes(), "no folder item but the file's entry");
        assertEquals(List.of(), reset.resets());
        assertNull(reset.counter(), "a file counts on no other aggregate's item");
        assertEquals(Set.of(), reset.tokens());
    }

    @Test
    void theStreamsItemsInItsPartitionAreTheMetadataAndTheTombstone() {
        assertEquals("FILE#f1", RESET.partition("f1"));
        assertTrue(RESET.owns(item(KeyPlan.FILE_TOMBSTONE.key("f1"), Attributes.FILE_ID, "f1")));
        assertFalse(RESET.owns(item(KeyPlan.FOLDER.key("d1"), Attributes.NAME, "Files")));
    }

    @Test
    void aKeyIsAFileStreamWhenItsEventsNameItAsTheirFile() {
        assertEquals(Optional.empty(), RESET.notAStream("f1", EVENTS));
        assertTrue(RESET.notAStream("d1", EVENTS).orElseThrow().contains("not a file's"));
    }
}
