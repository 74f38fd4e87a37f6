package dev.cabinet.folder;

import java.util.Optional;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestResponse;

import dev.cabinet.auth.Caller;
import dev.cabinet.decision.Refusal;
import dev.cabinet.folder.FolderDecisions.CompleteFile;
import dev.cabinet.folder.FolderDecisions.DeleteFile;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * A file's metadata by id (pattern 12, no token needed); for its owner, the confirmation of its upload, the download of
 * its content (a redirect to object storage) and its deletion.
 */
@Deadline
@Path("/files/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class FileResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final FolderQueries folders;
    private final StoredContent content;
    private final UploadLinks uploads;

    FileResource(CommandAnswers answers, Caller caller, FolderQueries folders, StoredContent content,
            UploadLinks uploads) {
        this.answers = answers;
        this.caller = caller;
        this.folders = folders;
        this.content = content;
        this.uploads = uploads;
    }

    @GET
    @Operation(description = "A file's metadata, with its `status` (`pending`, `stored`) and `contentUrl`.")
    public Uni<FileView> getFile(@PathParam("id") String id) {
        Ids.require("id", id);
        return folders.findFile(id).map(file -> file.orElseThrow(() -> Problems.notFound("file", id)));
    }

    /**
     * Confirms the upload: checks the object the client PUT (it exists, with the size and content type declared) and
     * records the file as stored; a mismatch answers 409 saying what differs. Confirming a stored file again is a 200.
     */
    @POST
    @Path("complete")
    @Authenticated
    @Operation(description = "Confirms the upload (the folder's owner): the object must exist with the declared "
            + "size and content type, else a 409 says what differs; the file becomes `stored`.")
    public Uni<Response> completeUpload(@PathParam("id") String id) {
        Ids.require("id", id);
        String actor = caller.id();
        return folders.findFile(id)
                .chain(file -> object(file.orElse(null))
                        .map(object -> FolderDecisions.completeFile(new CompleteFile(id, actor,
                                Timestamps.format(answers.now())), file.orElse(null), object)))
                .chain(decision -> answers.answer(decision, actor,
                        appended -> Accepted.response(appended, id, "/files/" + id),
                        () -> Response.ok().build()));
    }

    /**
     * A new presigned PUT for a pending file's content, for its owner: the link the file was added with expires after
     * {@code cabinet.files.upload-url-lifetime}, or sooner when the credentials it was signed with do (S3 then answers
     * the PUT 403). A read, not a command: nothing is recorded (a link is not the file's state), no Idempotency-Key
     * keeps the answer, and no cache may (each answer is a new link).
     */
    @GET
    @Path("upload")
    @Authenticated
    @APIResponse(responseCode = "200", description = "A new presigned upload: PUT the content to `url` with "
            + "`headers` before `expiresAt`", content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = UploadLinks.Upload.class)))
    @APIResponse(responseCode = "409", description = "The file is stored: its content does not change",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = "Problem")))
    @Operation(description = "A new presigned `upload` for a pending file's content (its folder's owner), when the "
            + "one it was added with has expired; 409 once the file is stored.")
    public Uni<RestResponse<UploadLinks.Upload>> newUploadLink(@PathParam("id") String id) {
        Ids.require("id", id);
        return objectOf(id, FolderDecisions::newUploadLink)
                .map(found -> RestResponse.ResponseBuilder.ok(uploads.presign(found.address(),
                        found.file().contentType(), found.file().size()))
                        .header(HttpHeaders.CACHE_CONTROL, "no-store").build());
    }

    /** Redirects (303) the owner to a short-lived presigned GET of a stored file's content. */
    @GET
    @Path("content")
    @Authenticated
    @APIResponse(responseCode = "303", description = "The content is at the presigned GET in `Location` (valid for "
            + "`cabinet.files.download-url-lifetime`); 409 while the file is pending, 403 for anyone but its owner",
            headers = @Header(name = "Location", description = "A presigned GET of the file's object",
                    schema = @Schema(type = SchemaType.STRING, format = "uri")))
    @APIResponse(responseCode = "409", description = "The file is pending: its upload is not confirmed yet "
            + "(`POST /files/{id}/complete`)", content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(ref = "Problem")))
    @Operation(description = "The folder's owner only: 303 See Other to a presigned GET of the content; 409 while "
            + "the upload is pending.")
    public Uni<Response> downloadContent(@PathParam("id") String id) {
        Ids.require("id", id);
        return objectOf(id, FolderDecisions::download)
                .map(found -> Response.seeOther(content.downloadUrl(found.address(), found.file().name())).build());
    }

    /** Deletes the file's metadata; its object is then deleted by the projector role (see ObjectDeletions). */
    @DELETE
    @Authenticated
    @Operation(description = "Deletes a file (its folder's owner); its object is then deleted from the bucket.")
    public Uni<Response> deleteFile(@PathParam("id") String id) {
        Ids.require("id", id);
        String actor = caller.id();
        return folders.findFile(id)
                .map(file -> FolderDecisions.deleteFile(new DeleteFile(id, actor), file.orElse(null)))
                .chain(decision -> answers.accepted(decision, actor, id, "/files/" + id));
    }

    /** A file and the address of its object. */
    private record FileObject(FileView file, ObjectAddress address) {
    }

    /** What the caller may reach of the file's object by the rule {@code mayReach}: the file and its address. */
    private Uni<FileObject> objectOf(String id, ObjectRule mayReach) {
        String actor = caller.id();
        return folders.findFile(id).map(found -> {
            FileView file = found.orElse(null);
            mayReach.refusal(id, actor, file).ifPresent(refusal -> {
                throw Problems.of(refusal);
            });
            return new FileObject(file, ObjectAddress.parse(file.contentUrl()).orElseThrow(() -> Problems.conflict(
                    "file " + id + " has no object address: " + file.contentUrl())));
        });
    }

    /** A rule of {@link FolderDecisions} on reaching a file's object: a refusal, or empty when the actor may. */
    @FunctionalInterface
    private interface ObjectRule {
        Optional<Refusal> refusal(String fileId, String actor, FileView file);
    }

    /** The object a pending file's upload went to, as storage reports it; no call when the decision needs none. */
    private Uni<Optional<StoredObject>> object(FileView file) {
        if (!FolderDecisions.completionLooksAtObject(caller.id(), file)) {
            return Uni.createFrom().item(Optional.empty());
        }
        return ObjectAddress.parse(file.contentUrl()).map(content::head)
                .orElse(Uni.createFrom().item(Optional.empty()));
    }
}
