package dev.cabinet.folder;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;

/**
 * The rules of folder and file commands. A folder belongs to the user who created it: only they create folders in it,
 * rename or move it, and add files to it; a move needs the target to be theirs too, and not inside the folder moved.
 * Only a file's owner (the owner of its folder) confirms its upload, downloads it and deletes it. Every view argument is
 * null when its item does not exist.
 */
public final class FolderDecisions {

    /** {@code owner} creates {@code folder} at {@code now}; its id is made by the API. */
    public record CreateFolder(String folderId, String owner, NewFolderRequest folder, String now) {
    }

    /** {@code owner} renames the folder or moves it under another, as {@code change} says (one at a time). */
    public record ChangeFolder(String folderId, String owner, FolderChangeRequest change) {
    }

    /**
     * {@code owner} adds {@code file}'s metadata to the folder at {@code now}; its content goes to {@code contentUrl}
     * (the upload link's object), both made by the API.
     */
    public record AddFile(String folderId, String fileId, String owner, NewFileRequest file, String contentUrl,
            String now) {
    }

    /** {@code actor} confirms the file's upload at {@code now}. */
    public record CompleteFile(String fileId, String actor, String now) {
    }

    /** {@code actor} deletes the file. */
    public record DeleteFile(String fileId, String actor) {
    }

    private FolderDecisions() {
    }

    /** A root folder when the command's folder names no parent; otherwise {@code parent} is the folder it names. */
    public static Decision create(CreateFolder command, FolderView parent) {
        NewFolderRequest folder = command.folder();
        String owner = command.owner();
        Supplier<Decision> created = () -> Decision.accept(FolderEvent.CREATED, new FolderCreated(command.folderId(),
                folder.name(), folder.parentId(), owner, command.now()));
        return folder.parentId() == null ? created.get()
                : owned(parent, folder.parentId(), owner, "create folders in", created);
    }

    /**
     * A rename, or a move under {@code target} (the folder the change's {@code parentId} names), whose {@code lineage}
     * is the ids above it by each folder's {@code parentId}, nearest first. A folder moved under itself or a descendant
     * would leave the tree as a cycle nobody can reach: both the target's derived ancestors and its lineage are
     * looked in, since the ancestors lag a move whose walk has not reached the target yet (move C under A, then A under
     * D, a child of C, before C's walk reached D). A move to where it already is, as read, is accepted (below).
     */
    public static Decision change(ChangeFolder command, FolderView folder, FolderView target, List<String> lineage) {
        String folderId = command.folderId();
        String owner = command.owner();
        FolderChangeRequest change = command.change();
        return owned(folder, folderId, owner, "change", () -> change.name() != null
                ? Decision.accept(FolderEvent.RENAMED, new FolderRenamed(folderId, change.name()))
                : owned(target, change.parentId(), owner, "move folders into", () -> {
                    if (target.isInside(folderId) || lineage.contains(folderId)) {
                        return Decision.refuse(Refusal.conflict("folder " + folderId
                                + " cannot move under itself or one of its descendants"));
                    }
                    // A move to the folder it is in, as read, is accepted: the read may lag a move away from it
                    // (moved, then moved back), and applied to a folder that is there it changes nothing.
                    return Decision.accept(FolderEvent.MOVED, new FolderMoved(folderId, target.id()));
                }));
    }

    /**
     * A file's metadata in {@code folder}; its content goes to {@code contentUrl} afterwards. The size bound is checked
     * first: it is the same answer whatever the folder.
     */
    public static Decision addFile(AddFile command, long maxSize, FolderView folder) {
        if (command.file().size() > maxSize) {
            return Decision.refuse(Refusal.invalid("size", "must be at most " + maxSize + " bytes"));
        }
        NewFileRequest file = command.file();
        return owned(folder, command.folderId(), command.owner(), "add files to", () -> Decision.accept(
                FileEvent.UPLOADED, new FileUploaded(command.fileId(), command.folderId(), file.name(), file.size(),
                        file.contentType(), command.contentUrl(), command.now(), command.owner())));
    }

    /**
     * Confirms an upload from what object storage holds ({@code object}: empty when nothing was uploaded): the object must
     * have exactly the size and content type declared when the file was added. A file already stored stays as it is, so a
     * client that retries its confirmation gets the same answer.
     */
    public static Decision completeFile(CompleteFile command, FileView file, Optional<StoredObject> object) {
        String fileId = command.fileId();
        return ownedFile(file, fileId, command.actor(), "confirm its upload", () -> {
            if (file.isStored()) {
                return Decision.unchanged();
            }
            if (object.isEmpty()) {
                return Decision.refuse(Refusal.conflict("nothing was uploaded for file " + fileId
                        + " yet: PUT its content to the upload URL first"));
            }
            StoredObject found = object.get();
            if (found.size() != file.size()) {
                return Decision.refuse(Refusal.conflict("the uploaded content of file " + fileId + " has " + found.size()
                        + " bytes, but " + file.size() + " were declared"));
            }
            if (!file.contentType().equals(found.contentType())) {
                return Decision.refuse(Refusal.conflict("the uploaded content of file " + fileId + " is "
                        + found.contentType() + ", but " + file.contentType() + " was declared"));
            }
            return Decision.accept(FileEvent.STORED, new FileStored(fileId, found.size(), found.contentType(),
                    command.now()));
        });
    }

    /**
     * Whether confirming the upload needs what object storage holds: only for a pending file of the caller's; for any
     * other, {@link #completeFile} answers without it, and no storage call is made.
     */
    public static boolean completionLooksAtObject(String actor, FileView file) {
        return file != null && !file.isStored() && actor.equals(file.ownerId());
    }

    /**
     * Whether the caller may download the file's content now: empty when they may. Only the owner may: a folder is
     * private to its owner (only they add files to it), and its files' content with it; the metadata stays readable by
     * id, as every file's is.
     */
    public static Optional<Refusal> download(String fileId, String actor, FileView file) {
        Decision decision = ownedFile(file, fileId, actor, "download it", () -> file.isStored() ? Decision.unchanged()
                : Decision.refuse(Refusal.conflict("file " + fileId + " is pending: its upload is not confirmed yet")));
        return decision instanceof Decision.Refuse refuse ? Optional.of(refuse.refusal()) : Optional.empty();
    }

    /**
     * Whether the caller may have a new upload link for the file now: empty when they may. Only its owner, and only
     * while it is pending: a stored file's content does not change.
     */
    public static Optional<Refusal> newUploadLink(String fileId, String actor, FileView file) {
        Decision decision = ownedFile(file, fileId, actor, "upload its content", () -> file.isStored()
                ? Decision.refuse(Refusal.conflict("file " + fileId + " is stored: its content does not change"))
                : Decision.unchanged());
        return decision instanceof Decision.Refuse refuse ? Optional.of(refuse.refusal()) : Optional.empty();
    }

    /** Deletes the file's metadata; the event names its object, which the projector role then deletes. */
    public static Decision deleteFile(DeleteFile command, FileView file) {
        return ownedFile(file, command.fileId(), command.actor(), "delete it",
                () -> Decision.accept(FileEvent.DELETED, new FileDeleted(command.fileId(), file.contentUrl())));
    }

    private static Decision ownedFile(FileView file, String fileId, String actor, String action,
            Supplier<Decision> then) {
        if (file == null) {
            return Decision.refuse(Refusal.notFound("file", fileId));
        }
        if (!actor.equals(file.ownerId())) {
            return Decision.refuse(Refusal.forbidden("only the owner of file " + fileId + " may " + action));
        }
        return then.get();
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
