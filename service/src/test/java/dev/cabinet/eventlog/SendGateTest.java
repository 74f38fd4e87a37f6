package dev.cabinet.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** What a deadline answer may say of a command: whether its event went to the log decides it. */
class SendGateTest {

    @Test
    void anEventSentBeforeTheDeadlineIsNamedWhenItPasses() {
        SendGate gate = new SendGate();
        assertTrue(gate.send("01EVENT"));
        assertEquals(Optional.of("01EVENT"), gate.close());
    }

    @Test
    void afterTheDeadlineNothingIsSentAndNothingWasSentBefore() {
        SendGate gate = new SendGate();
        assertEquals(Optional.empty(), gate.close());
        assertFalse(gate.send("01EVENT"));
        assertEquals(Optional.empty(), gate.close());
    }
}
