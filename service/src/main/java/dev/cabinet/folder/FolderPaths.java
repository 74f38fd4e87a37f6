package dev.cabinet.folder;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Keeps every folder's {@code path} and {@code ancestorIds} equal to its parent's plus itself, however renames and moves
 * of different folders interleave. A derivation reads the folder and its parent, writes the result as a compare-and-set
 * on the folder's {@code rev} (retrying when someone else wrote in between), refreshes the name on the parent's entry,
 * then looks at the parent again and starts over if the parent changed meanwhile. A folder whose path changed passes
 * the change on to its children, which it finds through the subfolder entries of its own partition, and so on down.
 */
@ApplicationScoped
public class FolderPaths {

    private static final Logger LOG = Logger.getLogger(FolderPaths.class);

    static final String REV = "rev";
    static final String SEPARATOR = "/";

    private final ProjectionStore store;

    FolderPaths(ProjectionStore store) {
        this.store = store;
    }

    /** Derives the folder's path, and its descendants' when it changed. */
    public Uni<Void> derive(String folderId) {
        return deriveOne(folderId).chain(changed -> changed ? deriveChildren(folderId) : Uni.createFrom().voidItem());
    }

    private Uni<Void> deriveChildren(String folderId) {
        KeyQuery children = KeyQuery.of(Index.TABLE, FolderKeys.partition(folderId),
                SortKeyCondition.beginsWith(FolderKeys.subfolderPrefix()), false);
        return store.forEach(children, entry -> derive(Items.string(entry, "folderId"))).replaceWithVoid();
    }

    /** Emits whether the folder's path changed. */
    private Uni<Boolean> deriveOne(String folderId) {
        return store.read(FolderKeys.folder(folderId)).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            Map<String, AttributeValue> folder = found.get();
            String parentId = Items.string(folder, "parentId");
            Uni<Optional<Map<String, AttributeValue>>> parent = parentId == null ? Uni.createFrom().item(Optional.empty())
                    : store.read(FolderKeys.folder(parentId));
            return parent.chain(p -> write(folder, parentId, p));
        });
    }

    private Uni<Boolean> write(Map<String, AttributeValue> folder, String parentId,
            Optional<Map<String, AttributeValue>> parent) {
        String folderId = Items.string(folder, "folderId");
        if (parent.isPresent() && isSelfOrAncestor(folderId, parentId, Items.string(parent.get(), "ancestorIds"))) {
            // Two moves of different folders that crossed in one batch: deriving would go round the loop forever.
            LOG.errorf("Folder %s is inside its own subtree (under %s); its path is left as it is", folderId, parentId);
            return Uni.createFrom().item(false);
        }
        String name = Items.string(folder, "name");
        String path = path(parent, name);
        String ancestors = ancestors(parent, parentId);
        boolean same = path.equals(Items.string(folder, "path")) && ancestors.equals(Items.string(folder, "ancestorIds"));
        Uni<Boolean> written = same ? Uni.createFrom().item(true)
                : store.update(ItemUpdate.of(FolderKeys.folder(folderId))
                        .set("path", path)
                        .set("ancestorIds", ancestors)
                        .increment(REV, 1)
                        .onlyIfEquals(REV, Items.number(folder, REV)));
        return written.chain(ok -> {
            if (!ok) {
                return deriveOne(folderId).map(changed -> true);
            }
            if (parentId == null) {
                return Uni.createFrom().item(!same);
            }
            // Only an existing entry is renamed: a folder moved away meanwhile must not reappear in its old parent.
            return store.update(ItemUpdate.of(FolderKeys.subfolderEntry(parentId, folderId)).set("name", name).onlyIfExists())
                    .chain(() -> store.read(FolderKeys.folder(parentId)))
                    .chain(now -> now.isPresent() && parent.isPresent()
                            && Items.number(now.get(), REV) != Items.number(parent.get(), REV)
                                    ? deriveOne(folderId).map(changed -> true)
                                    : Uni.createFrom().item(!same));
        });
    }

    /** The path of a folder named {@code name} under {@code parent} (none: a root folder). */
    static String path(Optional<Map<String, AttributeValue>> parent, String name) {
        return parent.map(p -> Items.string(p, "path")).orElse("") + SEPARATOR + name;
    }

    /** The ancestor ids of a folder under {@code parent}: the parent's ancestors, then the parent. */
    static String ancestors(Optional<Map<String, AttributeValue>> parent, String parentId) {
        return parent.map(p -> join(Items.string(p, "ancestorIds"), parentId)).orElse("");
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
