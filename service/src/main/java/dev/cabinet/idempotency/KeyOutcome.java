package dev.cabinet.idempotency;

/**
 * What becomes of an Idempotency-Key once its request is answered (pure): its answer stored for retries, the key freed
 * for a corrected retry, or kept with its outcome unknown so that a retry makes the same ids again.
 */
enum KeyOutcome {
    STORE, RELEASE, KEEP_UNKNOWN;

    /**
     * {@code possiblyAppended}: the command's event may be in the log although the answer is not a success (a
     * {@code Prefer: wait} that ended in 409 rejected, or a retry that took over an attempt whose outcome was
     * unknown). Such a key is never freed: a further retry with new ids could append the command a second time.
     */
    static KeyOutcome of(int status, boolean unknownOutcome, boolean possiblyAppended) {
        if (unknownOutcome || status >= 500 && possiblyAppended) {
            return KEEP_UNKNOWN;
        }
        return status >= 300 && !possiblyAppended ? RELEASE : STORE;
    }
}
