package dev.cabinet.folder;

import java.net.URI;
import java.util.List;
import java.util.Map;

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

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.decision.Decision;
import dev.cabinet.folder.FolderDecisions.AddFile;
import dev.cabinet.folder.FolderDecisions.ChangeFolder;
import dev.cabinet.folder.FolderDecisions.CreateFolder;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.AcceptedAnswer;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Commands on folders. A folder belongs to the user who created it: only they may create folders in it, rename or move
 * it, and add files to it. Moving a folder needs the target folder to be theirs too, and not inside the folder moved.
 */
@Deadline
@Path("/folders")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class FolderCommandResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final FolderQueries folders;
    private final UploadLinks uploads;
    private final FilesConfig files;

    FolderCommandResource(CommandAnswers answers, Caller caller, FolderQueries folders, UploadLinks uploads,
            FilesConfig files) {
        this.answers = answers;
        this.caller = caller;
        this.folders = folders;
        this.uploads = uploads;
        this.files = files;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Creates a folder (`name`, optional `parentId`) owned by the caller.")
    public Uni<Response> createFolder(@Valid @NotNull NewFolderRequest body) {
        String owner = caller.id();
        String folderId = answers.newId();
        return folder(body.parentId())
                .map(parent -> FolderDecisions.create(new CreateFolder(folderId, owner, body,
                        Timestamps.format(answers.now())), parent))
                .chain(decision -> answers.accepted(decision, owner, folderId, "/folders/" + folderId));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Renames (`name`) or moves (`parentId`) a folder, one at a time, owner only; a move "
            + "under itself or a descendant is a 409.")
    public Uni<Response> changeFolder(@PathParam("id") String id, @Valid @NotNull FolderChangeRequest body) {
        String owner = caller.id();
        return Uni.combine().all().unis(folder(id), folder(body.parentId())).asTuple()
                .chain(read -> (read.getItem1() == null || read.getItem2() == null || read.getItem2().isInside(id)
                        ? Uni.createFrom().item(List.<String>of())   // decided without it
                        : folders.lineage(read.getItem2(), id))
                        .map(lineage -> FolderDecisions.change(new ChangeFolder(id, owner, body), read.getItem1(),
                                read.getItem2(), lineage)))
                .chain(decision -> answers.accepted(decision, owner, id, "/folders/" + id));
    }

    /** Adds a file's metadata and answers where to PUT its content (a presigned S3 URL). */
    @POST
    @Path("{id}/files")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Adds a file (`name`, `size`, `contentType`) as `pending` and answers a presigned "
            + "`upload` to PUT exactly those bytes to.")
    public Uni<Response> addFile(@PathParam("id") String id, @Valid @NotNull NewFileRequest body) {
        String owner = caller.id();
        Ids.require("id", id);
        String fileId = answers.newId();
        String objectKey = UploadLinks.objectKey(id, fileId);
        return folder(id)
                .map(folder -> FolderDecisions.addFile(new AddFile(id, fileId, owner, body,
                        uploads.contentUrl(objectKey), Timestamps.format(answers.now())), files.maxSize(), folder))
                .chain(decision -> {
                    // Signed before the event is appended: a signature that fails (no credentials) then appends
                    // nothing, as its 503 says, and the Idempotency-Key it frees cannot add a second file.
                    UploadLinks.Upload upload = decision instanceof Decision.Accept<?>
                            ? uploads.presign(objectKey, body.contentType(), body.size()) : null;
                    return answers.accepted(decision, owner, appended -> Response.accepted(new FileAccepted(
                            appended.eventId(), appended.type(), appended.position().token(), fileId, upload))
                            .location(URI.create("/files/" + fileId))
                            .build());
                });
    }

    /** The folder as the decisions read it: null when it does not exist, or when no id is given (no read then). */
    private Uni<FolderView> folder(String folderId) {
        if (folderId == null) {
            return Uni.createFrom().nullItem();
        }
        return folders.findFolder(Ids.require("id", folderId)).map(found -> found.orElse(null));
    }

    /** The 202 answer to an upload: {@link Accepted}'s fields and where the content goes. */
    public record FileAccepted(String eventId, String type, String position, String id, UploadLinks.Upload upload)
            implements AcceptedAnswer {

        /** The link stays in the answer after a {@code Prefer: wait}: without it the file could never be uploaded. */
        @Override
        public Map<String, Object> more() {
            return Map.of("upload", upload);
        }
    }
}
