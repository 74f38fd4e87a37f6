package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * A child that could not bind its port (another JVM's child took it a moment before) is not taken for ready
     * because that other child answers on the port.
     */
    @Test
    void aPortAnsweredWhileTheChildIsGoneIsNotItsReadiness(@TempDir Path dir) throws Exception {
        try (ServerSocket someoneElse = new ServerSocket()) {
            someoneElse.bind(new InetSocketAddress(InetAddress.getByName(FreePorts.LOOPBACK), 0), 1);
            int port = someoneElse.getLocalPort();
            OrphanRegistry registry = new OrphanRegistry(dir.resolve("pids"));
            try (ChildProcess child = ChildProcess.start("exits", List.of("true"), dir, dir.resolve("exits.log"),
                    registry)) {
                assertTrue(child.stop(), "the child ran and exited");
                IllegalStateException refused = assertThrows(IllegalStateException.class,
                        () -> FreePorts.await("exits", child, Duration.ofSeconds(5), () -> FreePorts.accepts(port)));
                assertTrue(refused.getMessage().contains("exited during startup"), refused.getMessage());
            }
        }
    }
}
