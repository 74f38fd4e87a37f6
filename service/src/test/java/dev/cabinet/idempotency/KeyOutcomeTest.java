package dev.cabinet.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a key keeps after its request's answer, by the answer and by whether the event may be in the log. */
class KeyOutcomeTest {

    @ParameterizedTest(name = "{0}, unknown outcome {1}, appended {2}, takes over {3}: {4}")
    @CsvSource({
        "202, false, false, false, STORE",          // accepted: a retry gets the same answer
        "200, false, false, false, STORE",          // a no-op, or applied after Prefer: wait
        "400, false, false, false, RELEASE",        // refused before appending: a corrected retry may reuse the key
        "503, false, false, false, RELEASE",        // failed before appending
        "503, true, false, false, KEEP_UNKNOWN",    // the log did not acknowledge in time: same ids on the retry
        "503, true, false, true, KEEP_UNKNOWN",     // a takeover whose own send went unacknowledged
        "409, false, true, false, STORE",           // rejected after its event was appended (Prefer: wait)
        "202, false, false, true, STORE",           // a takeover that appended
        "409, false, false, true, KEEP_UNKNOWN",    // a takeover refused ("already exists"): decided anew next time,
        "412, false, false, true, KEEP_UNKNOWN",    //   with the same ids, never a second order or comment
        "503, false, false, true, KEEP_UNKNOWN",    // a takeover that failed: the first attempt's event may be there
    })
    void aKeyIsFreedOnlyWhenNothingCanHaveBeenAppended(int status, boolean unknown, boolean appended, boolean takesOver,
            KeyOutcome expected) {
        assertEquals(expected, KeyOutcome.of(status, unknown, appended, takesOver));
    }
}
