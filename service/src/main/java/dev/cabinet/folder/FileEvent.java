package dev.cabinet.folder;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.TextRules;

/** Facts about a file's metadata (its content lives in object storage), keyed by file id on {@value Topics#FILES}. */
public sealed interface FileEvent extends DomainEvent permits FileEvent.FileUploaded, FileEvent.FileStored,
        FileEvent.FileDeleted {

    EventType<FileUploaded> UPLOADED = EventType.of("cabinet.file.uploaded.v1", FileUploaded.class, Topics.FILES);
    EventType<FileStored> STORED = EventType.of("cabinet.file.stored.v1", FileStored.class, Topics.FILES);
    EventType<FileDeleted> DELETED = EventType.of("cabinet.file.deleted.v1", FileDeleted.class, Topics.FILES);

    String fileId();

    @Override
    default String aggregateId() {
        return fileId();
    }

    /**
     * A file was added to a folder; {@code contentUrl} is where its content goes ({@code s3://bucket/key}). The file is
     * pending until a {@link FileStored} says its content is there.
     */
    record FileUploaded(String fileId, String folderId, String name, long size, String contentType, String contentUrl,
            String uploadedAt, String ownerId) implements FileEvent {
        public FileUploaded {
            EventFields.id("fileId", fileId);
            EventFields.id("folderId", folderId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.count("size", size);
            EventFields.text("contentType", contentType, TextRules.CONTENT_TYPE_MAX);
            EventFields.text("contentUrl", contentUrl, TextRules.URL_MAX);
            EventFields.timestamp("uploadedAt", uploadedAt);
            EventFields.id("ownerId", ownerId);
        }
    }

    /**
     * The file's content was found where {@code contentUrl} points, with the size and content type declared at the upload:
     * the file is stored, and can be downloaded.
     */
    record FileStored(String fileId, long size, String contentType, String storedAt) implements FileEvent {
        public FileStored {
            EventFields.id("fileId", fileId);
            EventFields.count("size", size);
            EventFields.text("contentType", contentType, TextRules.CONTENT_TYPE_MAX);
            EventFields.timestamp("storedAt", storedAt);
        }
    }

    /**
     * The file was deleted; {@code contentUrl} (optional, absent in events from before it was added) is the object whose
     * bytes go with it.
     */
    record FileDeleted(String fileId, String contentUrl) implements FileEvent {
        public FileDeleted {
            EventFields.id("fileId", fileId);
            EventFields.optionalText("contentUrl", contentUrl, TextRules.URL_MAX);
        }
    }
}
