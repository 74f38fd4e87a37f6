package dev.cabinet.folder;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.cabinet.auth.Caller;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.Problems;
import dev.cabinet.table.Ids;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** A file's metadata by id (pattern 12, no token needed), and its deletion by its owner. */
@Path("/files/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class FileResource {

    private final EventLog log;
    private final Caller caller;
    private final FolderQueries folders;

    FileResource(EventLog log, Caller caller, FolderQueries folders) {
        this.log = log;
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
                .map(file -> file.orElseThrow(() -> Problems.notFound("file", id)))
                .invoke(file -> {
                    if (!actor.equals(file.ownerId())) {
                        throw Problems.forbidden("only the owner of file " + id + " may delete it");
                    }
                })
                .chain(file -> log.append(FileEvent.DELETED, new FileDeleted(id), actor))
                .map(appended -> Accepted.response(appended, id, "/files/" + id));
    }
}
