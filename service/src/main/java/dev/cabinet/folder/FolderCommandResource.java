package dev.cabinet.folder;

import java.net.URI;
import java.time.Instant;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.cabinet.auth.Caller;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.Problems;
import dev.cabinet.table.Ids;
import dev.cabinet.table.Timestamps;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Commands on folders. A folder belongs to the user who created it: only they may create folders in it, rename or move
 * it, and add files to it. Moving a folder needs the target folder to be theirs too, and not inside the folder moved.
 */
@Path("/folders")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class FolderCommandResource {

    private final EventLog log;
    private final Caller caller;
    private final FolderQueries folders;
    private final UploadLinks uploads;
    private final FilesConfig files;

    FolderCommandResource(EventLog log, Caller caller, FolderQueries folders, UploadLinks uploads, FilesConfig files) {
        this.log = log;
        this.caller = caller;
        this.folders = folders;
        this.uploads = uploads;
        this.files = files;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> createFolder(@Valid @NotNull NewFolderRequest body) {
        String owner = caller.id();
        String folderId = log.newId();
        Uni<Void> parentOk = body.parentId() == null ? Uni.createFrom().voidItem()
                : ownFolder(body.parentId(), owner, "create folders in").replaceWithVoid();
        return parentOk
                .chain(() -> log.append(FolderEvent.CREATED, new FolderCreated(folderId, body.name(), body.parentId(),
                        owner, Timestamps.format(Instant.now())), owner))
                .map(appended -> Accepted.response(appended, folderId, "/folders/" + folderId));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> changeFolder(@PathParam("id") String id, @Valid @NotNull FolderChangeRequest body) {
        String owner = caller.id();
        Uni<FolderView> folder = ownFolder(id, owner, "change");
        if (body.name() != null) {
            return folder.chain(f -> log.append(FolderEvent.RENAMED, new FolderRenamed(id, body.name()), owner))
                    .map(appended -> Accepted.response(appended, id, "/folders/" + id));
        }
        return folder
                .chain(f -> ownFolder(body.parentId(), owner, "move folders into").invoke(target -> {
                    if (target.isInside(id)) {
                        throw Problems.conflict("folder " + id + " cannot move under itself or one of its descendants");
                    }
                    if (target.id().equals(f.parentId())) {
                        throw Problems.conflict("folder " + id + " is already in folder " + target.id());
                    }
                }))
                .chain(target -> log.append(FolderEvent.MOVED, new FolderMoved(id, target.id()), owner))
                .map(appended -> Accepted.response(appended, id, "/folders/" + id));
    }

    /** Adds a file's metadata and answers where to PUT its content (a presigned S3 URL). */
    @POST
    @Path("{id}/files")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> addFile(@PathParam("id") String id, @Valid @NotNull NewFileRequest body) {
        String owner = caller.id();
        if (body.size() > files.maxSize()) {
            throw Problems.badRequest("size", "must be at most " + files.maxSize() + " bytes");
        }
        String fileId = log.newId();
        String objectKey = UploadLinks.objectKey(id, fileId);
        return ownFolder(id, owner, "add files to")
                .chain(folder -> log.append(FileEvent.UPLOADED, new FileUploaded(fileId, id, body.name(), body.size(),
                        body.contentType(), uploads.contentUrl(objectKey), Timestamps.format(Instant.now()), owner), owner))
                .map(appended -> Response.accepted(new FileAccepted(appended.eventId(), appended.type(),
                        appended.position().token(), fileId, uploads.presign(objectKey, body.contentType(), body.size())))
                        .location(URI.create("/files/" + fileId))
                        .build());
    }

    private Uni<FolderView> ownFolder(String folderId, String owner, String action) {
        Ids.require("id", folderId);
        return folders.findFolder(folderId).map(found -> {
            FolderView folder = found.orElseThrow(() -> Problems.notFound("folder", folderId));
            if (!owner.equals(folder.ownerId())) {
                throw Problems.forbidden("only the owner of folder " + folderId + " may " + action + " it");
            }
            return folder;
        });
    }

    /** The 202 answer to an upload: {@link Accepted}'s fields and where the content goes. */
    public record FileAccepted(String eventId, String type, String position, String id, UploadLinks.Upload upload) {
    }
}
