package dev.cabinet.folder;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.Rejections;
import dev.cabinet.projection.StreamRoot;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/**
 * Projects file events onto the file's metadata (pattern 12, the stream's root: written first, deleted last) and its
 * entry in the folder's partition (pattern 11).
 */
@ApplicationScoped
public class LegacyFileProjector implements LegacyProjector {

    private final ProjectionStore store;
    private final StreamRoot root;
    private final Rejections rejections;

    LegacyFileProjector(ProjectionStore store, StreamRoot root, Rejections rejections) {
        this.store = store;
        this.root = root;
        this.rejections = rejections;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(FileEvent.UPLOADED, FileEvent.DELETED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        if (event.data() instanceof FileUploaded uploaded) {
            return root.apply(event, FolderKeys.file(uploaded.fileId()), FolderKeys.FILE_VERSION,
                    "file " + uploaded.fileId(), true, (file, progress) -> progress == Progress.REDO
                            ? entry(uploaded, event.version())
                            : uploaded(uploaded, event));
        }
        FileDeleted deleted = (FileDeleted) event.data();
        // Deleting a file that is gone changes nothing: it is what a redelivered deletion finds.
        return store.read(FolderKeys.file(deleted.fileId())).chain(file -> file.isEmpty() ? Uni.createFrom().voidItem()
                : deleted(deleted, Items.string(file.get(), "folderId"), Items.string(file.get(), "uploadedAt"),
                        event.version()));
    }

    private Uni<Void> uploaded(FileUploaded e, ReceivedEvent event) {
        return store.read(FolderKeys.folder(e.folderId())).chain(folder -> {
            if (folder.isEmpty()) {
                return rejections.reject(event, "folder " + e.folderId() + " does not exist");
            }
            return store.update(ItemUpdate.of(FolderKeys.file(e.fileId()), KeyPlan.FILE.name())
                    .set("fileId", e.fileId())
                    .set("folderId", e.folderId())
                    .set("name", e.name())
                    .set("size", e.size())
                    .set("contentType", e.contentType())
                    .set("contentUrl", e.contentUrl())
                    .set("uploadedAt", e.uploadedAt())
                    .set("ownerId", e.ownerId())
                    .guardedBy(FolderKeys.FILE_VERSION, event.version()))
                    .chain(() -> entry(e, event.version()));
        });
    }

    private Uni<Void> entry(FileUploaded e, long version) {
        return store.update(ItemUpdate.of(FolderKeys.fileEntry(e.folderId(), e.uploadedAt(), e.fileId()),
                KeyPlan.FOLDER_FILE.name())
                .set("fileId", e.fileId())
                .set("name", e.name())
                .set("size", e.size())
                .set("contentType", e.contentType())
                .set("uploadedAt", e.uploadedAt())
                .guardedBy(FolderKeys.FILE_VERSION, version))
                .replaceWithVoid();
    }

    private Uni<Void> deleted(FileDeleted e, String folderId, String uploadedAt, long version) {
        Key entry = FolderKeys.fileEntry(folderId, uploadedAt, e.fileId());
        return store.delete(entry, FolderKeys.FILE_VERSION, version)
                .chain(() -> store.delete(FolderKeys.file(e.fileId()), FolderKeys.FILE_VERSION, version))
                .replaceWithVoid();
    }
}
