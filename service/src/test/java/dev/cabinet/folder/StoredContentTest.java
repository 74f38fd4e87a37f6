package dev.cabinet.folder;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A HEAD of an upload that is not there: S3 answers 404 to a role that may list the bucket and 403 to one that may
 * not, and both mean "not uploaded yet" (so {@code POST /files/{id}/complete} answers 409 on AWS as it does locally);
 * anything else is a failure to report, not an absence.
 */
class StoredContentTest {

    @Test
    void bothAnswersOfAMissingObjectAreMissing() {
        assertTrue(StoredContent.isMissing(s3(404)));
        assertTrue(StoredContent.isMissing(new CompletionException(s3(404))), "as the async client delivers it");
        assertTrue(StoredContent.isMissing(NoSuchKeyException.builder().statusCode(404).build()));
        assertTrue(StoredContent.isMissing(new CompletionException(s3(403))), "a role without s3:ListBucket");
    }

    @Test
    void otherFailuresAreNotAbsences() {
        assertFalse(StoredContent.isMissing(new CompletionException(s3(500))));
        assertFalse(StoredContent.isMissing(new CompletionException(s3(503))));
        assertFalse(StoredContent.isMissing(new IllegalStateException("connection reset")));
    }

    private static S3Exception s3(int status) {
        return (S3Exception) S3Exception.builder().statusCode(status).message("status " + status).build();
    }
}
