package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class IndexLagTest {

    @Test
    void readsOneDelayARangeAndNone() {
        assertEquals(new IndexLag(Duration.ofSeconds(1), Duration.ofSeconds(1)), IndexLag.parse("1s"));
        assertEquals(new IndexLag(Duration.ofMillis(50), Duration.ofMillis(800)), IndexLag.parse("50ms..800ms"));
        assertEquals(new IndexLag(Duration.ofMillis(250), Duration.ofSeconds(2)), IndexLag.parse(" 250ms .. PT2S "));
        assertTrue(IndexLag.parse("0").isNone());
        assertEquals("50ms..800ms", IndexLag.parse("50ms..800ms").toString());
    }

    @Test
    void refusesWhatIsNotALagWithTheFormsItTakes() {
        IllegalArgumentException unit = assertThrows(IllegalArgumentException.class, () -> IndexLag.parse("1 minute"));
        assertTrue(unit.getMessage().contains("50ms..800ms"), unit.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IndexLag.parse("800ms..50ms"));
        assertThrows(IllegalArgumentException.class, () -> IndexLag.parse("1s..2s..3s"));
        assertThrows(IllegalArgumentException.class, () -> IndexLag.parse(""));
    }
}
