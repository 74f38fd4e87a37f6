package dev.cabinet.folder;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Index;
import io.smallrye.mutiny.Uni;

/** The folder and file reads, one method per access pattern. */
@ApplicationScoped
public class FolderQueries {

    private final TableReader table;

    FolderQueries(TableReader table) {
        this.table = table;
    }

    /** GetItem FOLDER#f / METADATA. */
    public Uni<Optional<FolderView>> findFolder(String folderId) {
        return table.get(FolderKeys.folder(folderId)).map(item -> item.map(FolderView::of));
    }

    /** Pattern 11: Query FOLDER#f, begins_with(sk, 'FOLDER#'). */
    public Uni<Page<SubfolderView>> listSubfolders(String folderId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.TABLE, FolderKeys.partition(folderId),
                SortKeyCondition.beginsWith(FolderKeys.subfolderPrefix()), false);
        return table.query(query, page).map(result -> result.map(SubfolderView::of));
    }

    /** Pattern 11: Query FOLDER#f, begins_with(sk, 'FILE#'), newest first. */
    public Uni<Page<FileView>> listFiles(String folderId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.TABLE, FolderKeys.partition(folderId),
                SortKeyCondition.beginsWith(FolderKeys.filePrefix()), true);
        return table.query(query, page).map(result -> result.map(FileView::of));
    }

    /** Pattern 12: GetItem FILE#id / METADATA. */
    public Uni<Optional<FileView>> findFile(String fileId) {
        return table.get(FolderKeys.file(fileId)).map(item -> item.map(FileView::of));
    }

    /** PATCH /folders/{id} honours If-Match against the folder's item. */
    @Produces
    @Singleton
    static TaggedResource folderTags() {
        return TaggedPath.of("/folders/", FolderKeys::folder);
    }

    /** DELETE /files/{id} honours If-Match against the file's item. */
    @Produces
    @Singleton
    static TaggedResource fileTags() {
        return TaggedPath.of("/files/", FolderKeys::file);
    }
}
