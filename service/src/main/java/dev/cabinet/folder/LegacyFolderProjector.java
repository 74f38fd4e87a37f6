package dev.cabinet.folder;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.Derivations;
import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.Rejections;
import dev.cabinet.projection.StreamRoot;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Projects folder events onto the folder's metadata (the stream's root) and its entry in the parent's partition, then
 * lets {@link FolderPaths} derive the path of the folder and of everything below it.
 */
@ApplicationScoped
public class LegacyFolderProjector implements LegacyProjector {

    private final ProjectionStore store;
    private final StreamRoot root;
    private final Derivations derivations;
    private final Rejections rejections;

    LegacyFolderProjector(ProjectionStore store, StreamRoot root, Derivations derivations, Rejections rejections) {
        this.store = store;
        this.root = root;
        this.derivations = derivations;
        this.rejections = rejections;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(FolderEvent.CREATED, FolderEvent.RENAMED, FolderEvent.MOVED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        FolderEvent data = (FolderEvent) event.data();
        return root.apply(event, FolderKeys.folder(data.folderId()), FolderKeys.FOLDER_VERSION,
                "folder " + data.folderId(), data instanceof FolderCreated, (folder, progress) -> {
                    if (data instanceof FolderCreated created) {
                        return created(created, event);
                    }
                    if (data instanceof FolderRenamed renamed) {
                        return renamed(renamed, event.version());
                    }
                    return moved((FolderMoved) data, folder.get(), progress, event);
                });
    }

    /** The folder is written with the path its parent has now, so it is never readable without one. */
    private Uni<Void> created(FolderCreated e, ReceivedEvent event) {
        Uni<Optional<Map<String, AttributeValue>>> parent = e.parentId() == null ? Uni.createFrom().item(Optional.empty())
                : store.read(FolderKeys.folder(e.parentId()));
        return parent.chain(p -> {
            if (e.parentId() != null && p.isEmpty()) {
                return rejections.reject(event, "parent folder " + e.parentId() + " does not exist");
            }
            ItemUpdate folder = ItemUpdate.of(FolderKeys.folder(e.folderId()), KeyPlan.FOLDER.name())
                    .set("folderId", e.folderId())
                    .set("name", e.name())
                    .set("parentId", e.parentId())
                    .set("ownerId", e.ownerId())
                    .set("createdAt", e.createdAt())
                    .set("path", FolderPaths.path(p, e.name()))
                    .set("ancestorIds", FolderPaths.ancestors(p, e.parentId()))
                    .setIfAbsent("rev", 0)
                    .guardedBy(FolderKeys.FOLDER_VERSION, event.version());
            Uni<Boolean> written = store.update(folder);
            if (e.parentId() != null) {
                written = written.chain(() -> store.update(entry(e.parentId(), e.folderId(), e.name(), event.version())));
            }
            return written.chain(() -> derivations.run(FolderPaths.NAME, FolderKeys.folder(e.folderId())));
        });
    }

    private Uni<Void> renamed(FolderRenamed e, long version) {
        return store.update(ItemUpdate.of(FolderKeys.folder(e.folderId()))
                .set("name", e.name())
                .increment("rev", 1)
                .guardedBy(FolderKeys.FOLDER_VERSION, version))
                .chain(() -> derivations.run(FolderPaths.NAME, FolderKeys.folder(e.folderId())));
    }

    /**
     * Refuses a move under the folder itself or one of its descendants (the log orders moves of one folder, and the
     * API checks the same, so this only catches moves of different folders that crossed). The folder's parent changes
     * first, then the new parent's entry appears and the old one goes, then the paths follow.
     */
    private Uni<Void> moved(FolderMoved e, Map<String, AttributeValue> folder, Progress progress, ReceivedEvent event) {
        // A redo finds the root already moved: the parent it left is kept on the root for that.
        String oldParent = progress == Progress.NEW ? Items.string(folder, "parentId") : Items.string(folder, "movedFrom");
        return store.read(FolderKeys.folder(e.parentId())).chain(parent -> {
            if (progress == Progress.NEW && parent.isEmpty()) {
                return rejections.reject(event, "parent folder " + e.parentId() + " does not exist");
            }
            if (progress == Progress.NEW && FolderPaths.isSelfOrAncestor(e.folderId(), e.parentId(),
                    Items.string(parent.get(), "ancestorIds"))) {
                return rejections.reject(event, "folder " + e.folderId() + " cannot move under itself or a descendant");
            }
            long version = event.version();
            Uni<Boolean> moved = store.update(ItemUpdate.of(FolderKeys.folder(e.folderId()))
                    .set("parentId", e.parentId())
                    .set("movedFrom", oldParent)
                    .increment("rev", 1)
                    .guardedBy(FolderKeys.FOLDER_VERSION, version))
                    .chain(() -> store.update(entry(e.parentId(), e.folderId(), Items.string(folder, "name"), version)));
            if (oldParent != null && !oldParent.equals(e.parentId())) {
                moved = moved.chain(() -> store.delete(FolderKeys.subfolderEntry(oldParent, e.folderId()),
                        FolderKeys.FOLDER_VERSION, version));
            }
            return moved.chain(() -> derivations.run(FolderPaths.NAME, FolderKeys.folder(e.folderId())));
        });
    }

    private static ItemUpdate entry(String parentId, String folderId, String name, long version) {
        return ItemUpdate.of(FolderKeys.subfolderEntry(parentId, folderId), KeyPlan.SUBFOLDER.name())
                .set("folderId", folderId)
                .set("name", name)
                .guardedBy(FolderKeys.FOLDER_VERSION, version);
    }
}
