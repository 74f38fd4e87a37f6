package dev.cabinet.folder;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what file events do: the file's metadata is the stream's root (pattern 12), with an entry in its folder's
 * partition (pattern 11); a deletion leaves the file stream's tombstone, so a redelivered upload does not bring the
 * file back. A file is pending until its content is stored; both its item and its folder's entry show which.
 */
@ApplicationScoped
public class FileProjector implements Projector<FileEvent> {

    @Override
    public List<EventType<? extends FileEvent>> eventTypes() {
        return List.of(FileEvent.UPLOADED, FileEvent.STORED, FileEvent.DELETED);
    }

    @Override
    public StreamTarget target(FileEvent event) {
        return event instanceof FileUploaded
                ? StreamTarget.creating(KeyPlan.FILE_STREAM, event.fileId())
                : StreamTarget.of(KeyPlan.FILE_STREAM, event.fileId());
    }

    /**
     * An upload is listed in its folder without a look at the folder. The API appends an upload only into a folder it
     * finds, and folders are never deleted; but a replay of the log (a rebuild) reads the partitions side by side and
     * can bring the upload (keyed by the file) before its folder's creation (keyed by the folder), and an upload
     * refused then would be lost to the rebuilt table although the live one holds it.
     */
    @Override
    public WritePlan decide(FileEvent event, Reads reads) {
        if (event instanceof FileUploaded e) {
            return WritePlan.onRoot(KeyPlan.FILE.write(Map.of(
                    Attributes.FILE_ID, e.fileId(),
                    Attributes.FOLDER_ID, e.folderId(),
                    Attributes.NAME, e.name(),
                    Attributes.SIZE, e.size(),
                    Attributes.CONTENT_TYPE, e.contentType(),
                    Attributes.CONTENT_URL, e.contentUrl(),
                    Attributes.UPLOADED_AT, e.uploadedAt(),
                    Attributes.OWNER_ID, e.ownerId(),
                    Attributes.STATUS, FileStatus.PENDING)))
                    .write(KeyPlan.FOLDER_FILE.write(Map.of(
                            Attributes.FOLDER_ID, e.folderId(),
                            Attributes.FILE_ID, e.fileId(),
                            Attributes.NAME, e.name(),
                            Attributes.SIZE, e.size(),
                            Attributes.CONTENT_TYPE, e.contentType(),
                            Attributes.UPLOADED_AT, e.uploadedAt(),
                            Attributes.STATUS, FileStatus.PENDING)));
        }
        // The entry's key comes from the file as uploaded.
        Map<String, AttributeValue> file = reads.existingRoot();
        if (event instanceof FileStored e) {
            if (FileStatus.STORED.equals(Items.string(file, Attributes.STATUS))) {
                // Confirmed twice while the first confirmation was being projected (both read the file pending): the
                // first confirmation's time stays (the entity tag moves, as with any event the file records).
                return WritePlan.onRoot();
            }
            return WritePlan.onRoot(KeyPlan.FILE.write(Map.of(
                    Attributes.FILE_ID, e.fileId(),
                    Attributes.STATUS, FileStatus.STORED,
                    Attributes.STORED_AT, e.storedAt())))
                    .write(KeyPlan.FOLDER_FILE.write(Map.of(
                            Attributes.FOLDER_ID, Items.string(file, Attributes.FOLDER_ID),
                            Attributes.UPLOADED_AT, Items.string(file, Attributes.UPLOADED_AT),
                            Attributes.FILE_ID, e.fileId(),
                            Attributes.STATUS, FileStatus.STORED)));
        }
        return WritePlan.deleting(KeyPlan.FILE_TOMBSTONE.write(Map.of(Attributes.FILE_ID, event.fileId())))
                .delete(KeyPlan.FOLDER_FILE.key(Items.string(file, Attributes.FOLDER_ID),
                        Items.string(file, Attributes.UPLOADED_AT), event.fileId()));
    }
}
