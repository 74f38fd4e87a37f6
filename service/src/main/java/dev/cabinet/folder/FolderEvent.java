package dev.cabinet.folder;

import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.OPTIONAL_ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.TextRules;

/** Facts about a folder, keyed by folder id on {@value Topics#FOLDERS}. */
public sealed interface FolderEvent extends DomainEvent
        permits FolderEvent.FolderCreated, FolderEvent.FolderRenamed, FolderEvent.FolderMoved {

    EventType<FolderCreated> CREATED = EventType.of("cabinet.folder.created.v1", FolderCreated.class, Topics.FOLDERS);
    EventType<FolderRenamed> RENAMED = EventType.of("cabinet.folder.renamed.v1", FolderRenamed.class, Topics.FOLDERS);
    EventType<FolderMoved> MOVED = EventType.of("cabinet.folder.moved.v1", FolderMoved.class, Topics.FOLDERS);

    String folderId();

    @Override
    default String aggregateId() {
        return folderId();
    }

    /** A user created a folder: a root folder ({@code parentId} null) or a child of another. */
    @EventSchema(
            description = "A user created a folder: a root folder (parentId null or absent) or a child of another.",
            key = "folderId")
    record FolderCreated(@FieldSchema(ID) String folderId,
            @FieldSchema(value = TEXT, max = TextRules.NAME_MAX) String name,
            @FieldSchema(OPTIONAL_ID) String parentId, @FieldSchema(ID) String ownerId,
            @FieldSchema(TIMESTAMP) String createdAt) implements FolderEvent {
        /** The example the published schema shows. */
        public static final FolderCreated EXAMPLE = new FolderCreated("01JFOLDER00000000000000002", "Reports",
                "01JFOLDER00000000000000001", "ada", "2026-01-31T12:00:00.000Z");

        public FolderCreated {
            EventFields.id("folderId", folderId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            if (parentId != null) {
                EventFields.id("parentId", parentId);
            }
            EventFields.id("ownerId", ownerId);
            EventFields.timestamp("createdAt", createdAt);
        }
    }

    @EventSchema(description = "The folder got a new name; the path of every descendant follows.", key = "folderId")
    record FolderRenamed(@FieldSchema(ID) String folderId,
            @FieldSchema(value = TEXT, max = TextRules.NAME_MAX) String name) implements FolderEvent {
        /** The example the published schema shows. */
        public static final FolderRenamed EXAMPLE = new FolderRenamed("01JFOLDER00000000000000002", "Old reports");

        public FolderRenamed {
            EventFields.id("folderId", folderId);
            EventFields.text("name", name, TextRules.NAME_MAX);
        }
    }

    @EventSchema(
            description = "The folder moved under another parent; the path of every descendant follows.",
            key = "folderId")
    record FolderMoved(@FieldSchema(ID) String folderId, @FieldSchema(ID) String parentId) implements FolderEvent {
        /** The example the published schema shows. */
        public static final FolderMoved EXAMPLE = new FolderMoved("01JFOLDER00000000000000002",
                "01JFOLDER00000000000000003");

        public FolderMoved {
            EventFields.id("folderId", folderId);
            EventFields.id("parentId", parentId);
        }
    }
}
