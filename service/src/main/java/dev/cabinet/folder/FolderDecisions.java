package dev.cabinet.folder;

import java.util.function.Supplier;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;

/**
 * The rules of folder and file commands. A folder belongs to the user who created it: only they create folders in it,
 * rename or move it, and add files to it; a move needs the target to be theirs too, and not inside the folder moved.
 * Only a file's owner deletes it. Every view argument is null when its item does not exist.
 */
public final class FolderDecisions {

    private FolderDecisions() {
    }

    /** A root folder when {@code body} names no parent; otherwise {@code parent} is the folder it names. */
    public static Decision create(String folderId, String owner, NewFolderRequest body, String now, FolderView parent) {
        Supplier<Decision> created = () -> Decision.accept(FolderEvent.CREATED, new FolderCreated(folderId, body.name(),
                body.parentId(), owner, now));
        return body.parentId() == null ? created.get() : owned(parent, body.parentId(), owner, "create folders in", created);
    }

    /**
     * A rename, or a move under {@code target} (the folder {@code body.parentId()} names). A folder moved under itself
     * or a descendant would leave the tree as a cycle nobody can reach; a move to where it already is would rewrite
     * every descendant's path for nothing.
     */
    public static Decision change(String folderId, String owner, FolderChangeRequest body, FolderView folder,
            FolderView target) {
        return owned(folder, folderId, owner, "change", () -> body.name() != null
                ? Decision.accept(FolderEvent.RENAMED, new FolderRenamed(folderId, body.name()))
                : owned(target, body.parentId(), owner, "move folders into", () -> {
                    if (target.isInside(folderId)) {
                        return Decision.refuse(Refusal.conflict("folder " + folderId
                                + " cannot move under itself or one of its descendants"));
                    }
                    if (target.id().equals(folder.parentId())) {
                        return Decision.refuse(Refusal.conflict("folder " + folderId + " is already in folder "
                                + target.id()));
                    }
                    return Decision.accept(FolderEvent.MOVED, new FolderMoved(folderId, target.id()));
                }));
    }

    /**
     * A file's metadata in {@code folder}; its content goes to {@code contentUrl} afterwards. The size bound is checked
     * first: it is the same answer whatever the folder.
     */
    public static Decision addFile(String folderId, String fileId, String owner, NewFileRequest body, long maxSize,
            String contentUrl, String now, FolderView folder) {
        if (body.size() > maxSize) {
            return Decision.refuse(Refusal.invalid("size", "must be at most " + maxSize + " bytes"));
        }
        return owned(folder, folderId, owner, "add files to", () -> Decision.accept(FileEvent.UPLOADED,
                new FileUploaded(fileId, folderId, body.name(), body.size(), body.contentType(), contentUrl, now, owner)));
    }

    /** Deletes the file's metadata; removing the object from the bucket is left to a bucket lifecycle rule. */
    public static Decision deleteFile(String fileId, String actor, FileView file) {
        if (file == null) {
            return Decision.refuse(Refusal.notFound("file", fileId));
        }
        if (!actor.equals(file.ownerId())) {
            return Decision.refuse(Refusal.forbidden("only the owner of file " + fileId + " may delete it"));
        }
        return Decision.accept(FileEvent.DELETED, new FileDeleted(fileId));
    }

    private static Decision owned(FolderView folder, String folderId, String owner, String action,
            Supplier<Decision> then) {
        if (folder == null) {
            return Decision.refuse(Refusal.notFound("folder", folderId));
        }
        if (!owner.equals(folder.ownerId())) {
            return Decision.refuse(Refusal.forbidden("only the owner of folder " + folderId + " may " + action + " it"));
        }
        return then.get();
    }
}
