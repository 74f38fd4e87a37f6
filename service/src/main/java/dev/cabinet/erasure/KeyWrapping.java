package dev.cabinet.erasure;

import io.smallrye.mutiny.Uni;

/** What protects the subjects' data keys at rest: a new data key comes with its wrapped form, the form the table keeps. */
public interface KeyWrapping {

    /** A new AES-256 data key, clear and wrapped, with the key it was wrapped under. */
    Uni<DataKey> generate();

    /**
     * The clear data key of a wrapped one, recorded as wrapped by {@code wrappedBy} (a name {@link #opens} this
     * wrapping) under {@code wrappedUnder} (null where not recorded: keys made before 8 December 2026, local ones).
     */
    Uni<byte[]> unwrap(byte[] wrapped, String wrappedBy, String wrappedUnder);

    /**
     * What wraps new keys, recorded beside each (e.g. {@code kms:alias/cabinet-data-keys}, the key as configured): a
     * release before 8 December 2026 opens only a key recorded under its own configured name, which a rolling upgrade
     * keeps so.
     */
    String name();

    /** Whether this wrapping can unwrap a key recorded as wrapped by {@code wrappedBy} (null: recorded before names). */
    boolean opens(String wrappedBy);

    /**
     * A data key, clear and as wrapped, and the key it was wrapped under where the wrapping names one (KMS: the ARN it
     * answered with, whatever name it was asked by), recorded so that a later name of the key still opens it.
     */
    record DataKey(byte[] clear, byte[] wrapped, String wrappedUnder) {
    }
}
