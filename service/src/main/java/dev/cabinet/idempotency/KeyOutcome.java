package dev.cabinet.idempotency;

/**
 * What becomes of an Idempotency-Key once its request is answered (pure): its answer stored for retries, the key freed
 * for a corrected retry, or kept with its outcome unknown so that a retry makes the same ids again and is decided anew.
 */
enum KeyOutcome {
    STORE, RELEASE, KEEP_UNKNOWN;

    /**
     * {@code appended}: the command's event is in the log although the answer is no success (a {@code Prefer: wait}
     * that ended in 409 rejected): that answer is kept. {@code takesOver}: the request took over an attempt whose
     * outcome was unknown, whose event may be in the log; a refusal or failure of it must not free the key (a retry
     * with new ids could append the command twice), nor be kept for a day (the state it was refused on may change):
     * the key stays unknown, and a further retry is decided anew with the same ids.
     */
    static KeyOutcome of(int status, boolean unknownOutcome, boolean appended, boolean takesOver) {
        if (unknownOutcome) {
            return KEEP_UNKNOWN;
        }
        if (status < 300 || appended) {
            return STORE;
        }
        return takesOver ? KEEP_UNKNOWN : RELEASE;
    }

    /** An answer meant to be stored that could not be written down: the key is kept unless nothing was appended. */
    static KeyOutcome unstored(boolean appended, boolean takesOver) {
        return appended || takesOver ? KEEP_UNKNOWN : RELEASE;
    }
}
