package dev.cabinet.folder;

import static dev.cabinet.decision.Rules.NOW;
import static dev.cabinet.decision.Rules.appends;
import static dev.cabinet.decision.Rules.conflict;
import static dev.cabinet.decision.Rules.forbidden;
import static dev.cabinet.decision.Rules.invalid;
import static dev.cabinet.decision.Rules.notFound;
import static dev.cabinet.decision.Rules.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.decision.Decision;
import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FolderDecisions.AddFile;
import dev.cabinet.folder.FolderDecisions.ChangeFolder;
import dev.cabinet.folder.FolderDecisions.CompleteFile;
import dev.cabinet.folder.FolderDecisions.CreateFolder;
import dev.cabinet.folder.FolderDecisions.DeleteFile;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;

/**
 * The rules of folder and file commands, given the folders a resource reads. ada owns the tree root/docs/old and the
 * folder other; eve owns hers. No Quarkus, no table.
 */
class FolderDecisionsTest {

    private static final FolderView ROOT = folder("root", null, List.of(), "ada");
    private static final FolderView DOCS = folder("docs", "root", List.of("root"), "ada");
    private static final FolderView OLD = folder("old", "docs", List.of("root", "docs"), "ada");
    private static final FolderView OTHER = folder("other", null, List.of(), "ada");
    private static final FolderView EVES = folder("eves", null, List.of(), "eve");
    private static final long MAX_SIZE = 1000;
    private static final String URL = "s3://cabinet-files/folders/docs/files/f1";
    private static final Optional<StoredObject> AS_DECLARED = Optional.of(new StoredObject(10, "application/pdf"));

    @ParameterizedTest(name = "{0}")
    @MethodSource({ "creating", "renaming", "moving", "files", "uploads" })
    void followsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> creating() {
        return Stream.of(
                rule("anyone creates a root folder, which is theirs",
                        FolderDecisions.create(newFolder("eve", "Notes", null), null),
                        appends(FolderEvent.CREATED, new FolderCreated("f1", "Notes", null, "eve", NOW))),
                rule("the owner creates a folder in their folder",
                        FolderDecisions.create(newFolder("ada", "Q1", "docs"), DOCS),
                        appends(FolderEvent.CREATED, new FolderCreated("f1", "Q1", "docs", "ada", NOW))),
                rule("no one creates folders in someone else's folder",
                        FolderDecisions.create(newFolder("eve", "Q1", "docs"), DOCS),
                        forbidden("only the owner of folder docs may create folders in it")),
                rule("a parent that does not exist is not found",
                        FolderDecisions.create(newFolder("ada", "Q1", "gone"), null),
                        notFound("folder gone does not exist")));
    }

    static Stream<Arguments> renaming() {
        FolderChangeRequest rename = new FolderChangeRequest("Documents", null);
        return Stream.of(
                rule("the owner renames their folder",
                        FolderDecisions.change(new ChangeFolder("docs", "ada", rename), DOCS, null, List.of()),
                        appends(FolderEvent.RENAMED, new FolderRenamed("docs", "Documents"))),
                rule("no one renames someone else's folder",
                        FolderDecisions.change(new ChangeFolder("docs", "eve", rename), DOCS, null, List.of()),
                        forbidden("only the owner of folder docs may change it")),
                rule("a folder that does not exist cannot be renamed",
                        FolderDecisions.change(new ChangeFolder("gone", "ada", rename), null, null, List.of()),
                        notFound("folder gone does not exist")));
    }

    static Stream<Arguments> moving() {
        return Stream.of(
                rule("the owner moves a folder under another of their folders",
                        FolderDecisions.change(new ChangeFolder("old", "ada", moveTo("other")), OLD, OTHER, List.of()),
                        appends(FolderEvent.MOVED, new FolderMoved("old", "other"))),
                rule("a folder cannot move under itself",
                        FolderDecisions.change(new ChangeFolder("docs", "ada", moveTo("docs")), DOCS, DOCS, List.of()),
                        conflict("folder docs cannot move under itself or one of its descendants")),
                rule("a folder cannot move under one of its descendants: the tree would become a cycle",
                        FolderDecisions.change(new ChangeFolder("root", "ada", moveTo("old")), ROOT, OLD, List.of()),
                        conflict("folder root cannot move under itself or one of its descendants")),
                rule("nor under a folder whose derived ancestors lag a move its lineage already shows (C under A, "
                        + "then A under D, a child of C, before C's walk reached D)",
                        FolderDecisions.change(new ChangeFolder("root", "ada", moveTo("other")), ROOT, OTHER,
                                List.of("docs", "root")),
                        conflict("folder root cannot move under itself or one of its descendants")),
                rule("a move to the folder it is in, as read, is accepted: the read may lag a move away from it",
                        FolderDecisions.change(new ChangeFolder("old", "ada", moveTo("docs")), OLD, DOCS, List.of()),
                        appends(FolderEvent.MOVED, new FolderMoved("old", "docs"))),
                rule("no one moves a folder into someone else's folder",
                        FolderDecisions.change(new ChangeFolder("docs", "ada", moveTo("eves")), DOCS, EVES, List.of()),
                        forbidden("only the owner of folder eves may move folders into it")),
                rule("no one moves someone else's folder, whatever the target",
                        FolderDecisions.change(new ChangeFolder("docs", "eve", moveTo("eves")), DOCS, EVES, List.of()),
                        forbidden("only the owner of folder docs may change it")),
                rule("a target that does not exist is not found",
                        FolderDecisions.change(new ChangeFolder("docs", "ada", moveTo("gone")), DOCS, null, List.of()),
                        notFound("folder gone does not exist")));
    }

    static Stream<Arguments> files() {
        NewFileRequest small = new NewFileRequest("q1.pdf", MAX_SIZE, "application/pdf");
        NewFileRequest large = new NewFileRequest("q1.pdf", MAX_SIZE + 1, "application/pdf");
        return Stream.of(
                rule("the owner adds a file up to the size limit to their folder",
                        FolderDecisions.addFile(new AddFile("docs", "f1", "ada", small, URL, NOW), MAX_SIZE, DOCS),
                        appends(FileEvent.UPLOADED, new FileUploaded("f1", "docs", "q1.pdf", MAX_SIZE,
                                "application/pdf", URL, NOW, "ada"))),
                rule("a file larger than the limit is refused, naming its size",
                        FolderDecisions.addFile(new AddFile("docs", "f1", "ada", large, URL, NOW), MAX_SIZE, DOCS),
                        invalid("size", "must be at most 1000 bytes")),
                rule("no one adds files to someone else's folder",
                        FolderDecisions.addFile(new AddFile("docs", "f1", "eve", small, URL, NOW), MAX_SIZE, DOCS),
                        forbidden("only the owner of folder docs may add files to it")),
                rule("no file goes into a folder that does not exist",
                        FolderDecisions.addFile(new AddFile("gone", "f1", "ada", small, URL, NOW), MAX_SIZE, null),
                        notFound("folder gone does not exist")),
                rule("the owner deletes their file",
                        FolderDecisions.deleteFile(new DeleteFile("f1", "ada"), file("ada")),
                        appends(FileEvent.DELETED, new FileDeleted("f1", URL))),
                rule("no one deletes someone else's file",
                        FolderDecisions.deleteFile(new DeleteFile("f1", "eve"), file("ada")),
                        forbidden("only the owner of file f1 may delete it")),
                rule("a file that does not exist cannot be deleted",
                        FolderDecisions.deleteFile(new DeleteFile("f1", "ada"), null),
                        notFound("file f1 does not exist")));
    }

    static Stream<Arguments> uploads() {
        return Stream.of(
                rule("an upload of the declared size and type is confirmed: the file is stored",
                        FolderDecisions.completeFile(completeBy("ada"), file("ada"), AS_DECLARED),
                        appends(FileEvent.STORED, new FileStored("f1", 10, "application/pdf", NOW))),
                rule("nothing uploaded yet is a conflict that says to PUT first",
                        FolderDecisions.completeFile(completeBy("ada"), file("ada"), Optional.empty()),
                        conflict("nothing was uploaded for file f1 yet: PUT its content to the upload URL first")),
                rule("an upload of another size is refused, naming both sizes",
                        FolderDecisions.completeFile(completeBy("ada"), file("ada"),
                                Optional.of(new StoredObject(11, "application/pdf"))),
                        conflict("the uploaded content of file f1 has 11 bytes, but 10 were declared")),
                rule("an upload of another content type is refused, naming both types",
                        FolderDecisions.completeFile(completeBy("ada"), file("ada"),
                                Optional.of(new StoredObject(10, "text/plain"))),
                        conflict("the uploaded content of file f1 is text/plain, but application/pdf was declared")),
                rule("confirming a stored file again changes nothing",
                        FolderDecisions.completeFile(completeBy("ada"), stored("ada"), Optional.empty()),
                        Decision.unchanged()),
                rule("no one confirms someone else's upload",
                        FolderDecisions.completeFile(completeBy("eve"), file("ada"), AS_DECLARED),
                        forbidden("only the owner of file f1 may confirm its upload")),
                rule("a file that does not exist cannot be confirmed",
                        FolderDecisions.completeFile(completeBy("ada"), null, AS_DECLARED),
                        notFound("file f1 does not exist")),
                rule("the owner downloads a stored file",
                        refusalOf(FolderDecisions.download("f1", "ada", stored("ada"))),
                        Decision.unchanged()),
                rule("a pending file cannot be downloaded yet",
                        refusalOf(FolderDecisions.download("f1", "ada", file("ada"))),
                        conflict("file f1 is pending: its upload is not confirmed yet")),
                rule("no one downloads someone else's file",
                        refusalOf(FolderDecisions.download("f1", "eve", stored("ada"))),
                        forbidden("only the owner of file f1 may download it")),
                rule("a deleted file cannot be downloaded",
                        refusalOf(FolderDecisions.download("f1", "ada", null)),
                        notFound("file f1 does not exist")),
                rule("the owner gets a new upload link for a pending file",
                        refusalOf(FolderDecisions.newUploadLink("f1", "ada", file("ada"))),
                        Decision.unchanged()),
                rule("a stored file's content does not change",
                        refusalOf(FolderDecisions.newUploadLink("f1", "ada", stored("ada"))),
                        conflict("file f1 is stored: its content does not change")),
                rule("no one gets a link to someone else's file",
                        refusalOf(FolderDecisions.newUploadLink("f1", "eve", file("ada"))),
                        forbidden("only the owner of file f1 may upload its content")),
                rule("a deleted file gets no link",
                        refusalOf(FolderDecisions.newUploadLink("f1", "ada", null)),
                        notFound("file f1 does not exist")));
    }

    /**
     * The confirmation's storage call is skipped only where the decision does not depend on what storage holds: for
     * every file that does not look at the object, any object gives the answer that none gives.
     */
    @Test
    void theConfirmationLooksAtTheObjectOnlyWhenItsAnswerDependsOnIt() {
        List<Optional<StoredObject>> objects = List.of(Optional.empty(), AS_DECLARED,
                Optional.of(new StoredObject(11, "text/plain")));
        Map<String, FileView> files = new LinkedHashMap<>();
        files.put("none", null);
        files.put("pending, the caller's", file("ada"));
        files.put("pending, another's", file("eve"));
        files.put("stored, the caller's", stored("ada"));
        files.put("stored, another's", stored("eve"));
        files.forEach((what, file) -> {
            boolean looks = FolderDecisions.completionLooksAtObject("ada", file);
            assertEquals(what.equals("pending, the caller's"), looks, what);
            if (!looks) {
                for (Optional<StoredObject> object : objects) {
                    assertEquals(FolderDecisions.completeFile(completeBy("ada"), file, Optional.empty()),
                            FolderDecisions.completeFile(completeBy("ada"), file, object), what + " with " + object);
                }
            }
        });
    }

    /** A download's refusal as a decision, so the table compares it like the others (none: unchanged). */
    private static Decision refusalOf(Optional<dev.cabinet.decision.Refusal> refusal) {
        return refusal.map(Decision::refuse).orElse(Decision.unchanged());
    }

    /** {@code owner} creates the folder f1 named {@code name} in {@code parentId} (null: at the root). */
    private static CreateFolder newFolder(String owner, String name, String parentId) {
        return new CreateFolder("f1", owner, new NewFolderRequest(name, parentId), NOW);
    }

    /** {@code actor} confirms the upload of the file f1, now. */
    private static CompleteFile completeBy(String actor) {
        return new CompleteFile("f1", actor, NOW);
    }

    private static FolderChangeRequest moveTo(String parentId) {
        return new FolderChangeRequest(null, parentId);
    }

    private static FolderView folder(String id, String parentId, List<String> ancestors, String owner) {
        return new FolderView(id, id, parentId, String.join("/", ancestors) + "/" + id, ancestors, owner, NOW, null);
    }

    private static FileView file(String owner) {
        return new FileView("f1", "q1.pdf", "docs", 10, "application/pdf", URL, NOW, owner, FileStatus.PENDING, null,
                null);
    }

    private static FileView stored(String owner) {
        return new FileView("f1", "q1.pdf", "docs", 10, "application/pdf", URL, NOW, owner, FileStatus.STORED, NOW,
                null);
    }
}
