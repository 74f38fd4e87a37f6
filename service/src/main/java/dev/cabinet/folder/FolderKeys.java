package dev.cabinet.folder;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of folders and files: metadata items, and the entries a folder's partition lists (pattern 11). */
final class FolderKeys {

    /** The folder stream's version, which the items its events write record. */
    static final String FOLDER_VERSION = "folderVersion";
    /** The file stream's version. */
    static final String FILE_VERSION = "fileVersion";

    private FolderKeys() {
    }

    static Key folder(String folderId) {
        return KeyPlan.FOLDER.key(folderId);
    }

    static Key subfolderEntry(String parentId, String folderId) {
        return KeyPlan.SUBFOLDER.key(parentId, folderId);
    }

    static Key fileEntry(String folderId, String uploadedAt, String fileId) {
        return KeyPlan.FOLDER_FILE.key(folderId, uploadedAt, fileId);
    }

    static Key file(String fileId) {
        return KeyPlan.FILE.key(fileId);
    }

    static String partition(String folderId) {
        return KeyPlan.FOLDER.partition(folderId);
    }

    static String subfolderPrefix() {
        return KeyPlan.SUBFOLDER.sk().prefix();
    }
}
