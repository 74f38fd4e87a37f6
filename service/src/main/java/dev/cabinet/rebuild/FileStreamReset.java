package dev.cabinet.rebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.AggregateStream;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items a file's stream owns (pure): the record key of {@code cabinet.files} is the file id, and the stream owns
 * its partition {@code FILE#{fileId}} (the metadata, its root, and the tombstone a deletion leaves) and, outside it, the
 * file's entry in its folder's partition ({@code FOLDER#{folderId} / FILE#{uploadedAt}#{fileId}}, from the upload, as
 * a file never moves). All are deleted; the folder's own items and its other files' entries stay. No count is on these
 * items nor made by the stream, so none needs holding. The stored object is not the table's: its deletion is a side
 * effect of its own consumer group, which a rebuild does not run.
 */
final class FileStreamReset implements StreamReset {

    @Override
    public String topic() {
        return Topics.FILES;
    }

    @Override
    public AggregateStream stream() {
        return KeyPlan.FILE_STREAM;
    }

    @Override
    public Optional<String> notAStream(String key, List<RecordedEvent> events) {
        return StreamReset.nameTheKey(key, events, Attributes.FILE_ID) ? Optional.empty()
                : Optional.of("not a file's (they do not name " + key + " as their file)");
    }

    @Override
    public Reset reset(String fileId, List<Map<String, AttributeValue>> partition, List<RecordedEvent> events) {
        String pk = partition(fileId);
        List<Key> deletes = new ArrayList<>(partition.stream().map(Key::of)
                .filter(key -> key.pk().equals(pk) && isFileItem(key)).toList());
        for (RecordedEvent event : events) {
            String folderId = event.field(Attributes.FOLDER_ID);
            String uploadedAt = event.field(Attributes.UPLOADED_AT);
            if (folderId != null && uploadedAt != null) {   // an upload (a rejected one too: deleting nothing is fine)
                Key entry = KeyPlan.FOLDER_FILE.key(folderId, uploadedAt, fileId);
                if (!deletes.contains(entry)) {
                    deletes.add(entry);
                }
            }
        }
        return Reset.deleting(deletes);
    }

    @Override
    public boolean owns(Map<String, AttributeValue> item) {
        return isFileItem(Key.of(item));
    }

    private static boolean isFileItem(Key key) {
        return KeyPlan.FILE.matches(key) || KeyPlan.FILE_TOMBSTONE.matches(key);
    }
}
