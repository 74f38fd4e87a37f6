package dev.cabinet.erasure;

import io.smallrye.mutiny.Uni;

/** What protects the subjects' data keys at rest: a new data key comes with its wrapped form, the form the table keeps. */
public interface KeyWrapping {

    /** A new AES-256 data key, clear and wrapped. */
    Uni<DataKey> generate();

    /** The clear data key of a wrapped one. */
    Uni<byte[]> unwrap(byte[] wrapped);

    /** What wrapped a key, recorded beside it (e.g. {@code kms:arn:aws:kms:...}), so a later change of wrapping is seen. */
    String name();

    /** A data key, clear and as wrapped. */
    record DataKey(byte[] clear, byte[] wrapped) {
    }
}
