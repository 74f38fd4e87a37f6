package dev.cabinet.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a key keeps after its request's answer, by the answer and by whether the event may be in the log. */
class KeyOutcomeTest {

    @ParameterizedTest(name = "{0}, unknown outcome {1}, possibly appended {2}: {3}")
    @CsvSource({
        "202, false, false, STORE",          // accepted: a retry gets the same answer
        "200, false, false, STORE",          // a no-op, or applied after Prefer: wait
        "400, false, false, RELEASE",        // refused before appending: a corrected retry may reuse the key
        "503, false, false, RELEASE",        // failed before appending
        "503, true, false, KEEP_UNKNOWN",    // the log did not acknowledge in time: same ids on the retry
        "409, false, true, STORE",           // rejected after its event was appended (Prefer: wait), or a takeover's
                                             // retry refused ("already exists"): a further retry gets this again
        "503, false, true, KEEP_UNKNOWN",    // a takeover that failed: the first attempt's event may be in the log
    })
    void aKeyIsFreedOnlyWhenNothingCanHaveBeenAppended(int status, boolean unknown, boolean appended,
            KeyOutcome expected) {
        assertEquals(expected, KeyOutcome.of(status, unknown, appended));
    }
}
