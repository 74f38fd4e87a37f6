package dev.cabinet.folder;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.shared.Ids;
import io.smallrye.mutiny.Uni;

/** Reads of folders: the folder with its path, its subfolders and its files (pattern 11); no token needed. */
@Deadline
@Path("/folders")
@Produces(MediaType.APPLICATION_JSON)
public class FolderQueryResource {

    private final FolderQueries folders;
    private final PageRequests pages;

    FolderQueryResource(FolderQueries folders, PageRequests pages) {
        this.folders = folders;
        this.pages = pages;
    }

    @GET
    @Path("{id}")
    @Operation(description = "A folder with its `path` and `ancestorIds` (root first).")
    public Uni<FolderView> getFolder(@PathParam("id") String id) {
        Ids.require("id", id);
        return folders.findFolder(id).map(folder -> folder.orElseThrow(() -> Problems.notFound("folder", id)));
    }

    @GET
    @Path("{id}/folders")
    @Operation(description = "The folder's subfolders, by id.")
    public Uni<Page<SubfolderView>> listSubfolders(@PathParam("id") String id,
            @BeanParam PageParameters page) {
        Ids.require("id", id);
        return folders.listSubfolders(id, pages.of(page.limit(), page.cursor()));
    }

    @GET
    @Path("{id}/files")
    @Operation(description = "The folder's files, newest first.")
    public Uni<Page<FileView>> listFiles(@PathParam("id") String id,
            @BeanParam PageParameters page) {
        Ids.require("id", id);
        return folders.listFiles(id, pages.of(page.limit(), page.cursor()));
    }
}
