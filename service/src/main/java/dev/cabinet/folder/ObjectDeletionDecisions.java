package dev.cabinet.folder;

import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.iam.IamRole;

/**
 * What a file event does to object storage, as a value: a deleted file's object is deleted; nothing else touches the
 * bucket. An address the service could not have written (another bucket, outside {@value IamRole#OBJECT_PREFIX}) is
 * never deleted: another producer's event must not reach objects that are not files'.
 */
public final class ObjectDeletionDecisions {

    private ObjectDeletionDecisions() {
    }

    /** The effect of one event on the bucket. */
    public sealed interface Effect permits Nothing, Delete, Impossible {
    }

    /** The event leaves the bucket alone. */
    public record Nothing() implements Effect {
    }

    /** Delete the object at this address (deleting one that is gone already is a success: the effect is idempotent). */
    public record Delete(ObjectAddress address) implements Effect {
    }

    /** The object should go, but cannot be named or may not be touched: dead-lettered with the reason. */
    public record Impossible(String reason) implements Effect {
    }

    public static Effect decide(FileEvent event, String bucket) {
        if (!(event instanceof FileDeleted deleted)) {
            return new Nothing();
        }
        if (deleted.contentUrl() == null) {
            return new Impossible("file " + deleted.fileId() + " was deleted without its contentUrl: its object is unknown");
        }
        return ObjectAddress.parse(deleted.contentUrl())
                .<Effect>map(address -> address.bucket().equals(bucket) && address.key().startsWith(IamRole.OBJECT_PREFIX)
                        ? new Delete(address)
                        : new Impossible("file " + deleted.fileId() + " names " + address + ", outside s3://" + bucket + "/"
                                + IamRole.OBJECT_PREFIX + ": not deleted"))
                .orElseGet(() -> new Impossible("file " + deleted.fileId() + " names " + deleted.contentUrl()
                        + ", which is not an s3://bucket/key address"));
    }
}
