package dev.cabinet.folder;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of folders and files: metadata items, and the entries a folder's partition lists (pattern 11). */
final class FolderKeys {

    private FolderKeys() {
    }

    static Key folder(String folderId) {
        return KeyPlan.FOLDER.key(folderId);
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
