package dev.cabinet.erasure;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How personal data is sealed in events, and how the subjects' data keys are wrapped at rest. */
@ConfigMapping(prefix = "cabinet.erasure")
public interface ErasureConfig {

    /**
     * Whether the event log seals personal data. Turn it off only while instances older than sealing still read the log
     * (they cannot open sealed values); events written meanwhile hold personal data in clear, beyond erasure's reach.
     */
    @WithDefault("true")
    boolean seal();

    /** What wraps the data keys in the table: {@code kms} (AWS KMS, production) or {@code local} (dev and tests). */
    @WithDefault("kms")
    Wrapping wrapping();

    /**
     * The KMS key (id, ARN or alias) that wraps new data keys; required with {@code wrapping=kms}. Each data key is
     * unwrapped under the ARN it was wrapped with, so this may name the key otherwise later (docs/erasure.md says what
     * moving an alias means for keys made before 8 December 2026).
     */
    Optional<String> kmsKeyId();

    /**
     * The AES-256 key (base64, 32 bytes) that wraps data keys with {@code wrapping=local}; dev and tests have a fixed
     * one. Whoever holds it and the table can open every person's data: never use it in production.
     */
    Optional<String> localKey();

    /**
     * How long an instance keeps a data key it read: a command or event of the same person within it needs no store
     * read. An erasure removes the key from its own instance at once; another instance may still seal (unreadably) or
     * open with it this long, and what it opens then is replaced by the erasure's copy checks (docs/erasure.md).
     */
    @WithDefault("1m")
    Duration keyCache();

    enum Wrapping {
        KMS, LOCAL
    }
}
