package dev.cabinet.folder;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where file content goes: an S3 bucket Cabinet presigns uploads for (it never handles the bytes). */
@ConfigMapping(prefix = "cabinet.files")
public interface FilesConfig {

    /**
     * The bucket the content of uploaded files goes to. Set in application.properties, where the Dev Services read it
     * while the application is built, to create it in their s3proxy.
     */
    String bucket();

    /**
     * How long a presigned upload URL stays valid. With temporary credentials (a pod's IAM role) a presigned URL also
     * ends when the credentials it was signed with expire, which the SDK renews only minutes before: keep this and the
     * download's lifetime well under the role's session; a client that gets a 403 asks for a new link (the file's
     * upload endpoint in docs/api.md).
     */
    @WithDefault("15M")
    Duration uploadUrlLifetime();

    /** How long a presigned download URL stays valid: short, since anyone holding it can read the file. */
    @WithDefault("5M")
    Duration downloadUrlLifetime();

    /**
     * How long the deletion of a deleted file's object is retried on transient errors before it is dead-lettered, so
     * that one object that cannot be deleted holds up the others for at most this long.
     */
    @WithDefault("2M")
    Duration deleteRetryFor();

    /** The largest file accepted, in bytes: 5 GiB, the most one S3 PUT takes. */
    @WithDefault("5368709120")
    long maxSize();
}
