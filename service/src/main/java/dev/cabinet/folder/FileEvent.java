package dev.cabinet.folder;

import static dev.cabinet.eventlog.FieldSchema.Kind.COUNT;
import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.OPTIONAL_TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
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
    @EventSchema(
            description = "A file was added to a folder; contentUrl is where its content goes (s3://bucket/key).",
            key = "fileId")
    record FileUploaded(@FieldSchema(ID) String fileId, @FieldSchema(ID) String folderId,
            @FieldSchema(value = TEXT, max = TextRules.NAME_MAX) String name, @FieldSchema(COUNT) long size,
            @FieldSchema(value = TEXT, max = TextRules.CONTENT_TYPE_MAX) String contentType,
            @FieldSchema(value = TEXT, max = TextRules.URL_MAX) String contentUrl,
            @FieldSchema(TIMESTAMP) String uploadedAt, @FieldSchema(ID) String ownerId) implements FileEvent {
        /** The example the published schema shows. */
        public static final FileUploaded EXAMPLE = new FileUploaded("01JFILE0000000000000000001",
                "01JFOLDER00000000000000002", "q1.pdf", 48213, "application/pdf",
                "s3://cabinet-files/01JFILE0000000000000000001", "2026-01-31T12:00:00.000Z", "ada");

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
    @EventSchema(
            description = "The file's content was found where contentUrl points, with the size and content type "
                    + "declared at the upload: the file is stored, and can be downloaded.",
            key = "fileId")
    record FileStored(@FieldSchema(ID) String fileId, @FieldSchema(COUNT) long size,
            @FieldSchema(value = TEXT, max = TextRules.CONTENT_TYPE_MAX) String contentType,
            @FieldSchema(TIMESTAMP) String storedAt) implements FileEvent {
        /** The example the published schema shows. */
        public static final FileStored EXAMPLE = new FileStored("01JFILE0000000000000000001", 48213, "application/pdf",
                "2026-01-31T12:00:05.000Z");

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
    @EventSchema(
            description = "The file was deleted; contentUrl (optional, absent in events from before it was added) is "
                    + "the object whose bytes go with it.",
            key = "fileId")
    record FileDeleted(@FieldSchema(ID) String fileId,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.URL_MAX) String contentUrl) implements FileEvent {
        /** The example the published schema shows. */
        public static final FileDeleted EXAMPLE = new FileDeleted("01JFILE0000000000000000001",
                "s3://cabinet-files/folders/01JFOLDER00000000000000002/files/01JFILE0000000000000000001");

        public FileDeleted {
            EventFields.id("fileId", fileId);
            EventFields.optionalText("contentUrl", contentUrl, TextRules.URL_MAX);
        }
    }
}
