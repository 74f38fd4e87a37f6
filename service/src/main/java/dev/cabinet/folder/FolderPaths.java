package dev.cabinet.folder;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.projection.Derivation;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Keeps every folder's {@code path} and {@code ancestorIds} equal to its parent's plus itself (run by the engine's
 * {@code projection.execution.Derivations}, which also refreshes the name on the parent's entry and passes changes down
 * to the subfolders). Each write is a compare-and-set on the folder's {@code rev}, which every change of a folder
 * increments, so renames and moves of different folders may interleave freely.
 */
@ApplicationScoped
public class FolderPaths implements Derivation {

    /** The name folder plans give their {@code Derive} step. */
    static final String NAME = "folder-path";
    static final String SEPARATOR = "/";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Key> parent(Map<String, AttributeValue> folder) {
        return Optional.ofNullable(Items.string(folder, Attributes.PARENT_ID)).map(KeyPlan.FOLDER::key);
    }

    @Override
    public Derived derive(Map<String, AttributeValue> folder, Optional<Map<String, AttributeValue>> parent) {
        String folderId = Items.string(folder, Attributes.FOLDER_ID);
        String parentId = Items.string(folder, Attributes.PARENT_ID);
        if (parent.isPresent() && isSelfOrAncestor(folderId, parentId,
                Items.string(parent.get(), Attributes.ANCESTOR_IDS))) {
            // Two moves of different folders that crossed in one batch: deriving would go round the loop forever.
            return Derived.leave("folder " + folderId + " is inside its own subtree (under " + parentId + ")");
        }
        String path = path(parent, Items.string(folder, Attributes.NAME));
        String ancestors = ancestors(parent, parentId);
        if (path.equals(Items.string(folder, Attributes.PATH))
                && ancestors.equals(Items.string(folder, Attributes.ANCESTOR_IDS))) {
            return Derived.upToDate();
        }
        return Derived.write(ItemUpdate.of(KeyPlan.FOLDER.key(folderId))
                .set(Attributes.PATH, path)
                .set(Attributes.ANCESTOR_IDS, ancestors)
                .increment(Attributes.REV, 1)
                .onlyIfEquals(Attributes.REV, Items.number(folder, Attributes.REV)));
    }

    @Override
    public Optional<ItemUpdate> entry(Map<String, AttributeValue> folder) {
        String parentId = Items.string(folder, Attributes.PARENT_ID);
        if (parentId == null) {
            return Optional.empty();
        }
        // The entry keeps the revision of the folder it was refreshed from, and takes only a later one: a refresh from
        // the folder as read before a rename (a walk's late look, or an instance still finishing a batch after its
        // partition moved) does not take the old name back.
        return Optional.of(ItemUpdate.of(KeyPlan.SUBFOLDER.key(parentId, Items.string(folder, Attributes.FOLDER_ID)))
                .set(Attributes.NAME, Items.string(folder, Attributes.NAME))
                .guardedBy(Attributes.REV, revision(folder))
                .onlyIfExists());
    }

    @Override
    public long revision(Map<String, AttributeValue> folder) {
        return Items.number(folder, Attributes.REV);
    }

    /** A folder's subfolder entries, in its own partition (pattern 11). */
    @Override
    public KeyQuery children(Key folder) {
        return KeyQuery.of(Index.TABLE, folder.pk(), SortKeyCondition.beginsWith(KeyPlan.SUBFOLDER.sk().prefix()),
                false);
    }

    @Override
    public Key childKey(Map<String, AttributeValue> entry) {
        return KeyPlan.FOLDER.key(Items.string(entry, Attributes.FOLDER_ID));
    }

    /**
     * The subfolder as its entry under {@code parent} tells it: its id, name and the revision the name was copied at,
     * under the parent's id; no path or ancestors, so {@link #derive} writes them, as a compare-and-set on that
     * revision. An entry without a revision (written before one was copied to it) tells nothing.
     */
    @Override
    public Optional<Map<String, AttributeValue>> fromEntry(Map<String, AttributeValue> entry,
            Map<String, AttributeValue> parent) {
        if (entry.get(Attributes.REV) == null || entry.get(Attributes.NAME) == null) {
            return Optional.empty();
        }
        return Optional.of(Map.of(
                Attributes.FOLDER_ID, entry.get(Attributes.FOLDER_ID),
                Attributes.PARENT_ID, parent.get(Attributes.FOLDER_ID),
                Attributes.NAME, entry.get(Attributes.NAME),
                Attributes.REV, entry.get(Attributes.REV)));
    }

    /** The path of a folder named {@code name} under {@code parent} (none: a root folder). */
    static String path(Optional<Map<String, AttributeValue>> parent, String name) {
        return parent.map(p -> Items.string(p, Attributes.PATH)).orElse("") + SEPARATOR + name;
    }

    /**
     * The path of a folder at {@code path} once renamed from {@code oldName} to {@code newName}: its parent's part
     * kept, the name replaced; empty when the path does not end with the old name (the derivation writes it then).
     */
    static Optional<String> renamed(String path, String oldName, String newName) {
        String last = SEPARATOR + oldName;
        return path != null && oldName != null && path.endsWith(last)
                ? Optional.of(path.substring(0, path.length() - last.length()) + SEPARATOR + newName)
                : Optional.empty();
    }

    /** The ancestor ids of a folder under {@code parent}: the parent's ancestors, then the parent. */
    static String ancestors(Optional<Map<String, AttributeValue>> parent, String parentId) {
        return parent.map(p -> join(Items.string(p, Attributes.ANCESTOR_IDS), parentId)).orElse("");
    }

    /** The ancestors of a folder whose parent has {@code parentAncestors}: those, then the parent. */
    static String join(String parentAncestors, String parentId) {
        return parentAncestors == null || parentAncestors.isEmpty() ? parentId : parentAncestors + SEPARATOR + parentId;
    }

    /** Whether {@code folderId} is {@code candidate} or one of its ancestors: moving it under the candidate would loop. */
    static boolean isSelfOrAncestor(String folderId, String candidateId, String candidateAncestors) {
        if (folderId.equals(candidateId)) {
            return true;
        }
        return candidateAncestors != null && !candidateAncestors.isEmpty()
                && Arrays.asList(candidateAncestors.split(SEPARATOR)).contains(folderId);
    }
}
