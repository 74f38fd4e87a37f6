package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A client's instants read into the fixed-width form keys use, or refused with the field's name (no I/O). */
class InstantParametersTest {

    @Test
    void aPointOrARangesEndIsTheMillisecondAtOrBelowIt() {
        assertEquals("2026-01-31T12:00:00.000Z", InstantParameters.fixedWidth("to", "2026-01-31T12:00:00Z"));
        assertEquals("2026-01-31T12:00:00.000Z", InstantParameters.fixedWidth("to", "2026-01-31T12:00:00.0009Z"));
    }

    @Test
    void aRangesStartIsTheMillisecondAtOrAboveItSoNothingBeforeItIsRead() {
        assertEquals("2026-01-31T12:00:00.001Z", InstantParameters.rangeStart("from", "2026-01-31T12:00:00.0005Z"));
        assertEquals("2026-01-31T12:00:00.000Z", InstantParameters.rangeStart("from", "2026-01-31T12:00:00Z"));
        assertEquals("2026-01-31T12:00:01.000Z", InstantParameters.rangeStart("from", "2026-01-31T12:00:00.999001Z"));
    }

    @Test
    void theYearsZeroToNineThousandNineHundredNinetyNineAreKeptAsTheyAreAndOthersRefused() {
        assertEquals("0000-06-01T00:00:00.000Z", InstantParameters.fixedWidth("from", "0000-06-01T00:00:00Z"),
                "year 0 stays year 0, not the first year of the era");
        assertEquals("9999-12-31T23:59:59.999Z", InstantParameters.fixedWidth("to", "9999-12-31T23:59:59.999Z"));
        for (String outside : new String[] { "-0001-01-01T00:00:00Z", "+10000-01-01T00:00:00Z",
                "+1000000000-01-01T00:00:00Z", "-1000000000-01-01T00:00:00Z" }) {
            ProblemException refused = assertThrows(ProblemException.class,
                    () -> InstantParameters.fixedWidth("from", outside), outside);
            assertEquals(400, refused.status(), outside);
            assertEquals(400, assertThrows(ProblemException.class,
                    () -> InstantParameters.rangeStart("from", outside), outside).status(), outside);
        }
        assertEquals(400, assertThrows(ProblemException.class, () -> InstantParameters.rangeStart("from",
                "+1000000000-12-31T23:59:59.999999999Z")).status(), "the last instant Java holds, rounded up");
        assertThrows(ProblemException.class, () -> InstantParameters.rangeStart("from", "31 January 2026"));
    }
}
