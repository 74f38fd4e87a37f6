package dev.cabinet.shared;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which texts are timestamps keys may hold: the fixed width, and a day and time that exist. */
class TimestampsTest {

    @ParameterizedTest
    @ValueSource(strings = { "2026-01-31T12:00:00.000Z", "2028-02-29T23:59:59.999Z", "0000-01-01T00:00:00.000Z" })
    void aTimestampOfTheFixedWidthOnADayThatExistsIsValid(String text) {
        assertTrue(Timestamps.isValid(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = { "2026-02-30T10:00:00.000Z", "2026-02-29T10:00:00.000Z", "2026-04-31T10:00:00.000Z",
            "2026-13-01T10:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T10:60:00.000Z",
            "2026-01-01T10:00:60.000Z", "2026-01-01T10:00:00Z", "2026-01-01 10:00:00.000Z" })
    void aTimestampOfADayOrTimeNoCalendarHasOrOfAnotherFormIsNot(String text) {
        assertFalse(Timestamps.isValid(text), text);
    }
}
