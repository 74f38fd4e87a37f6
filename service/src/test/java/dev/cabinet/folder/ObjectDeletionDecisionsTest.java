package dev.cabinet.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.ObjectDeletionDecisions.Delete;
import dev.cabinet.folder.ObjectDeletionDecisions.Effect;
import dev.cabinet.folder.ObjectDeletionDecisions.Impossible;
import dev.cabinet.folder.ObjectDeletionDecisions.Nothing;

/** What each file event does to the bucket, without S3 or Kafka. */
class ObjectDeletionDecisionsTest {

    private static final String BUCKET = "cabinet-files";
    private static final String AT = "2026-06-01T10:00:00.000Z";
    private static final String URL = "s3://cabinet-files/folders/d1/files/f1";

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void followsTheRule(String sentence, FileEvent event, Effect expected) {
        assertEquals(expected, ObjectDeletionDecisions.decide(event, BUCKET), sentence);
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("a deleted file's object is deleted",
                        new FileDeleted("f1", URL),
                        new Delete(new ObjectAddress(BUCKET, "folders/d1/files/f1"))),
                Arguments.of("an upload leaves the bucket alone",
                        new FileUploaded("f1", "d1", "a.pdf", 3, "application/pdf", URL, AT, "u1"),
                        new Nothing()),
                Arguments.of("a stored file leaves the bucket alone",
                        new FileStored("f1", 3, "application/pdf", AT),
                        new Nothing()),
                Arguments.of("a deletion that does not name its object cannot be carried out",
                        new FileDeleted("f1", null),
                        new Impossible("file f1 was deleted without its contentUrl: its object is unknown")),
                Arguments.of("an object in another bucket is never deleted",
                        new FileDeleted("f1", "s3://billing/folders/d1/files/f1"),
                        new Impossible("file f1 names s3://billing/folders/d1/files/f1, outside "
                                + "s3://cabinet-files/folders/: not deleted")),
                Arguments.of("an object outside the files' prefix is never deleted",
                        new FileDeleted("f1", "s3://cabinet-files/backups/all.tar"),
                        new Impossible("file f1 names s3://cabinet-files/backups/all.tar, outside "
                                + "s3://cabinet-files/folders/: not deleted")),
                Arguments.of("a contentUrl that is no s3 address cannot be carried out",
                        new FileDeleted("f1", "https://example.org/f1"),
                        new Impossible("file f1 names https://example.org/f1, which is not an s3://bucket/key address")));
    }
}
