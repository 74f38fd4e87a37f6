package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void aPickedPortIsBindableBelowTheEphemeralRangeAndNeverHandedOutTwice() throws Exception {
        Set<Integer> picked = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            int port = FreePorts.pick();
            assertTrue(port >= 10_000 && port < 32_768, "outside the ephemeral range: " + port);
            assertTrue(picked.add(port), "handed out twice: " + port);
        }
        int port = FreePorts.pick();
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(FreePorts.LOOPBACK), port), 1);
            assertEquals(port, socket.getLocalPort());
        }
    }
}
