package dev.cabinet.erasure;

import io.smallrye.mutiny.Uni;

/** What protects the subjects' data keys at rest: a new data key comes with its wrapped form, the form the table keeps. */
public interface KeyWrapping {

    /** A new AES-256 data key, clear and wrapped, with the name of what wrapped it. */
    Uni<DataKey> generate();

    /** The clear data key of one wrapped by {@code wrappedBy} (a name {@link #opens} this wrapping). */
    Uni<byte[]> unwrap(byte[] wrapped, String wrappedBy);

    /** This wrapping's kind and key, for messages (e.g. {@code kms:alias/cabinet-data-keys}). */
    String name();

    /** Whether this wrapping can unwrap a key recorded as wrapped by {@code wrappedBy} (null: recorded before names). */
    boolean opens(String wrappedBy);

    /**
     * A data key, clear and as wrapped, and what wrapped it as recorded beside it (e.g. {@code kms:arn:aws:kms:...}),
     * so that a later change of wrapping is seen.
     */
    record DataKey(byte[] clear, byte[] wrapped, String wrappedBy) {
    }
}
