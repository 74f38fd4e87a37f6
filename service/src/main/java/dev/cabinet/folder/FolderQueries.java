package dev.cabinet.folder;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/** The folder and file reads, one method per access pattern. */
@ApplicationScoped
public class FolderQueries {

    private final TableReader table;

    FolderQueries(TableReader table) {
        this.table = table;
    }

    /** GetItem of the folder's item. */
    public Uni<Optional<FolderView>> findFolder(String folderId) {
        return table.get(KeyPlan.FOLDER.key(folderId)).map(item -> item.map(FolderView::of));
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
