package dev.cabinet.folder;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Problems;
import dev.cabinet.shared.Ids;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** A file's metadata by id (pattern 12, no token needed), and its deletion by its owner. */
@Path("/files/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class FileResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final FolderQueries folders;

    FileResource(CommandAnswers answers, Caller caller, FolderQueries folders) {
        this.answers = answers;
        this.caller = caller;
        this.folders = folders;
    }

    @GET
    public Uni<FileView> getFile(@PathParam("id") String id) {
        Ids.require("id", id);
        return folders.findFile(id).map(file -> file.orElseThrow(() -> Problems.notFound("file", id)));
    }

    /** Deletes the file's metadata; removing the object from the bucket is left to a bucket lifecycle rule. */
    @DELETE
    @Authenticated
    public Uni<Response> deleteFile(@PathParam("id") String id) {
        Ids.require("id", id);
        String actor = caller.id();
        return folders.findFile(id)
                .map(file -> FolderDecisions.deleteFile(id, actor, file.orElse(null)))
                .chain(decision -> answers.accepted(decision, actor, id, "/files/" + id));
    }
}
