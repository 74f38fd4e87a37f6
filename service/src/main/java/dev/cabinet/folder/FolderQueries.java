package dev.cabinet.folder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import io.smallrye.mutiny.Uni;

/** The folder and file reads, one method per access pattern. */
@ApplicationScoped
public class FolderQueries {

    /** The most levels {@link #lineage} reads: deeper trees are checked by their derived ancestors alone. */
    static final int DEEPEST = 64;

    private final TableReader table;

    FolderQueries(TableReader table) {
        this.table = table;
    }

    /** GetItem of the folder's item. */
    public Uni<Optional<FolderView>> findFolder(String folderId) {
        return table.get(KeyPlan.FOLDER.key(folderId)).map(item -> item.map(FolderView::of));
    }

    /**
     * The ids above the folder by each folder's {@code parentId}, nearest first, up to {@code wanted} if it is among
     * them: the tree as the moves applied so far left it, which the derived {@code ancestorIds} catch up with only once
     * each move's walk has passed. One GetItem a level, at most {@link #DEEPEST} levels, stopping where a folder is
     * missing or an id comes round again.
     */
    public Uni<List<String>> lineage(FolderView folder, String wanted) {
        return above(folder.parentId(), wanted, new ArrayList<>(List.of(folder.id())))
                .map(found -> found.subList(1, found.size()));
    }

    private Uni<List<String>> above(String parentId, String wanted, List<String> found) {
        if (parentId == null || found.size() > DEEPEST || found.contains(parentId)) {
            return Uni.createFrom().item(found);
        }
        found.add(parentId);
        if (parentId.equals(wanted)) {
            return Uni.createFrom().item(found);
        }
        return table.get(KeyPlan.FOLDER.key(parentId)).chain(parent -> above(
                parent.map(item -> Items.string(item, Attributes.PARENT_ID)).orElse(null), wanted, found));
    }

    /** Pattern 11: the folder's subfolders. */
    public Uni<Page<SubfolderView>> listSubfolders(String folderId, PageRequest page) {
        return table.query(KeyPlan.SUBFOLDERS.query(folderId), page).map(result -> result.map(SubfolderView::of));
    }

    /** Pattern 11: the folder's files, newest first. */
    public Uni<Page<FileView>> listFiles(String folderId, PageRequest page) {
        return table.query(KeyPlan.FOLDER_FILES.query(folderId), page).map(result -> result.map(FileView::of));
    }

    /** Pattern 12: GetItem of the file's item. */
    public Uni<Optional<FileView>> findFile(String fileId) {
        return table.get(KeyPlan.FILE.key(fileId)).map(item -> item.map(FileView::of));
    }

    /** PATCH /folders/{id} honours If-Match against the folder's item. */
    @Produces
    @Singleton
    static TaggedResource folderTags() {
        return TaggedPath.of("/folders/", KeyPlan.FOLDER::key);
    }

    /** DELETE /files/{id} honours If-Match against the file's item. */
    @Produces
    @Singleton
    static TaggedResource fileTags() {
        return TaggedPath.of("/files/", KeyPlan.FILE::key);
    }
}
