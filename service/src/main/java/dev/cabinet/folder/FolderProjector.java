package dev.cabinet.folder;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.Derive;
import dev.cabinet.projection.WritePlan.DeriveChildren;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what folder events do: the folder's metadata is the stream's root, with an entry in its parent's partition
 * (pattern 11); every change ends with a {@link FolderPaths} derivation, which keeps the path of the folder and of
 * everything below it equal to its parent's plus its name.
 */
@ApplicationScoped
public class FolderProjector implements Projector<FolderEvent> {

    @Override
    public List<EventType<? extends FolderEvent>> eventTypes() {
        return List.of(FolderEvent.CREATED, FolderEvent.RENAMED, FolderEvent.MOVED);
    }

    @Override
    public StreamTarget target(FolderEvent event) {
        return event instanceof FolderCreated
                ? StreamTarget.creating(KeyPlan.FOLDER_STREAM, event.folderId())
                : StreamTarget.of(KeyPlan.FOLDER_STREAM, event.folderId());
    }

    /** A creation under a parent, and a move, need the parent: it must exist, and gives the path. */
    @Override
    public List<Key> needs(FolderEvent event) {
        if (event instanceof FolderCreated e && e.parentId() != null) {
            return List.of(KeyPlan.FOLDER.key(e.parentId()));
        }
        if (event instanceof FolderMoved e) {
            return List.of(KeyPlan.FOLDER.key(e.parentId()));
        }
        return List.of();
    }

    @Override
    public WritePlan decide(FolderEvent event, Reads reads) {
        if (event instanceof FolderCreated e) {
            return created(e, reads);
        }
        if (event instanceof FolderRenamed e) {
            return renamed(e, reads.existingRoot());
        }
        return moved((FolderMoved) event, reads);
    }

    /**
     * The folder is written with the path its parent has now, so it is never readable without one. A parent not there
     * yet is not a refusal: the API creates a subfolder only under a folder it finds, but a replay of the log reads the
     * partitions side by side and can bring the subfolder (keyed by itself) before its parent (keyed by the parent).
     * Its path is then its own name until the parent's creation passes its path down ({@link DeriveChildren}, when
     * that batch ends), or its own derivation finds the parent.
     */
    private static WritePlan created(FolderCreated e, Reads reads) {
        if (e.folderId().equals(e.parentId())) {
            // Another producer's (the API refuses it): the folder would list itself, and its derivation loop.
            return WritePlan.reject("folder " + e.folderId() + " cannot be its own parent");
        }
        Optional<Map<String, AttributeValue>> parent = e.parentId() == null ? Optional.empty()
                : reads.item(KeyPlan.FOLDER.key(e.parentId()));
        Map<String, Object> folder = new HashMap<>();
        folder.put(Attributes.FOLDER_ID, e.folderId());
        folder.put(Attributes.NAME, e.name());
        if (e.parentId() != null) {
            folder.put(Attributes.PARENT_ID, e.parentId());
        }
        folder.put(Attributes.OWNER_ID, e.ownerId());
        folder.put(Attributes.CREATED_AT, e.createdAt());
        folder.put(Attributes.PATH, FolderPaths.path(parent, e.name()));
        folder.put(Attributes.ANCESTOR_IDS, FolderPaths.ancestors(parent, e.parentId()));
        WritePlan plan = WritePlan.onRoot(KeyPlan.FOLDER.write(folder).setIfAbsent(Attributes.REV, 0));
        if (e.parentId() != null) {
            // The path is checked against the parent once the entry is written, when the batch ends: a move of the
            // parent meanwhile either shows in that look or walks the parent's entries and finds this one.
            // The entry holds the revision its name is of (the folder's first), so that a walk down the parent's
            // subfolders can write this folder without reading it (FolderPaths.fromEntry).
            plan.write(entry(e.parentId(), e.folderId(), e.name()).set(Attributes.REV, 0))
                    .then(Derive.checking(FolderPaths.NAME, KeyPlan.FOLDER.key(e.folderId()),
                            KeyPlan.FOLDER.key(e.parentId())));
        }
        return plan.then(new DeriveChildren(FolderPaths.NAME, KeyPlan.FOLDER.key(e.folderId())));
    }

    /**
     * Refuses a move under the folder itself or one of its descendants (the log orders moves of one folder, and the
     * API checks the same, so this only catches moves of different folders that crossed). The folder's parent changes
     * first, with the path and ancestors the new parent as read gives (one write of the folder, as a rename's), then the
     * new parent's entry appears and the old one goes, then the derivation looks at the new parent again and passes
     * the path down to the subfolders.
     */
    private static WritePlan moved(FolderMoved e, Reads reads) {
        Optional<Map<String, AttributeValue>> parent = reads.item(KeyPlan.FOLDER.key(e.parentId()));
        if (parent.isEmpty()) {
            return WritePlan.reject("parent folder " + e.parentId() + " does not exist");
        }
        if (FolderPaths.isSelfOrAncestor(e.folderId(), e.parentId(),
                Items.string(parent.get(), Attributes.ANCESTOR_IDS))) {
            return WritePlan.reject("folder " + e.folderId() + " cannot move under itself or a descendant");
        }
        Map<String, AttributeValue> folder = reads.existingRoot();
        String oldParent = Items.string(folder, Attributes.PARENT_ID);
        String path = FolderPaths.path(parent, Items.string(folder, Attributes.NAME));
        String ancestors = FolderPaths.ancestors(parent, e.parentId());
        boolean moves = !path.equals(Items.string(folder, Attributes.PATH))
                || !ancestors.equals(Items.string(folder, Attributes.ANCESTOR_IDS));
        WritePlan plan = WritePlan.onRoot(ItemUpdate.of(KeyPlan.FOLDER.key(e.folderId()))
                .set(Attributes.PARENT_ID, e.parentId())
                .set(Attributes.PATH, path)
                .set(Attributes.ANCESTOR_IDS, ancestors)
                .increment(Attributes.REV, 1))
                .write(entry(e.parentId(), e.folderId(), Items.string(folder, Attributes.NAME)));
        if (oldParent != null && !oldParent.equals(e.parentId())) {
            plan.delete(KeyPlan.SUBFOLDER.key(oldParent, e.folderId()));
        }
        return plan.then(new Derive(FolderPaths.NAME, KeyPlan.FOLDER.key(e.folderId()), moves));
    }

    private static ItemUpdate entry(String parentId, String folderId, String name) {
        return KeyPlan.SUBFOLDER.write(Map.of(
                Attributes.PARENT_ID, parentId,
                Attributes.FOLDER_ID, folderId,
                Attributes.NAME, name));
    }

    /**
     * The new name, and the path it gives, in the rename's one write: the path is the parent's with the name last, and
     * the old path holds the parent's, so no second write of the folder follows (the derivation then finds it up to
     * date unless the parent's path moved meanwhile, and passes the new path down to the subfolders all the same).
     */
    private static WritePlan renamed(FolderRenamed e, Map<String, AttributeValue> folder) {
        ItemUpdate root = ItemUpdate.of(KeyPlan.FOLDER.key(e.folderId()))
                .set(Attributes.NAME, e.name())
                .increment(Attributes.REV, 1);
        FolderPaths.renamed(Items.string(folder, Attributes.PATH), Items.string(folder, Attributes.NAME), e.name())
                .ifPresent(path -> root.set(Attributes.PATH, path));
        // Passed down although the folder is then up to date, unless the name is the same: then nothing below changes.
        boolean renames = !e.name().equals(Items.string(folder, Attributes.NAME));
        return WritePlan.onRoot(root).then(new Derive(FolderPaths.NAME, KeyPlan.FOLDER.key(e.folderId()), renames));
    }
}
