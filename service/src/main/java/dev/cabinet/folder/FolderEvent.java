package dev.cabinet.folder;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
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
    record FolderCreated(String folderId, String name, String parentId, String ownerId, String createdAt)
            implements FolderEvent {
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

    /** The folder got a new name; the path of every descendant follows. */
    record FolderRenamed(String folderId, String name) implements FolderEvent {
        public FolderRenamed {
            EventFields.id("folderId", folderId);
            EventFields.text("name", name, TextRules.NAME_MAX);
        }
    }

    /** The folder moved under another parent; the path of every descendant follows. */
    record FolderMoved(String folderId, String parentId) implements FolderEvent {
        public FolderMoved {
            EventFields.id("folderId", folderId);
            EventFields.id("parentId", parentId);
        }
    }
}
