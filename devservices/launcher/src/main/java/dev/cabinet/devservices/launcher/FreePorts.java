package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/** Loopback port helpers: pick a free port, and wait until a child process listens on one. */
public final class FreePorts {

    static final String LOOPBACK = "127.0.0.1";
    /** Below every kernel's ephemeral range (Linux 32768-60999, macOS and Windows from 49152), above the well-known. */
    private static final int LOWEST = 10_000;
    private static final int ABOVE_HIGHEST = 32_768;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /**
     * A loopback port nothing listens on, for a process started next. It is taken below the ephemeral range: a port
     * the kernel handed out (as {@code new ServerSocket(0)} does) is also what it gives the next outgoing connection,
     * and under a test's load one took it before the application bound it. A port is handed out once per JVM.
     */
    public static int pick() {
        int highest = Math.min(ABOVE_HIGHEST, ephemeralLow()) - 1;
        if (highest <= LOWEST) {
            return anyFree(); // an ephemeral range reaching this low leaves no port outside it
        }
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
            if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port between " + LOWEST + " and " + highest);
    }

    private static int anyFree() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port), 1);
            return true;
        } catch (IOException busy) {
            return false;
        }
    }

    /** The first port of Linux's ephemeral range, or the range's usual start where the file does not exist. */
    private static int ephemeralLow() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        try {
            // Read by lines: Files.readString trusts the size /proc reports and returns only the first character.
            return Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException absent) {
            return ABOVE_HIGHEST;
        }
    }

    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Polls {@code ready} until it holds, the child died, or the timeout passed; a startup wait, not a test sleep. The
     * child must be alive on both sides of the check that holds: the checks only knock on a port, which another
     * JVM's child (one that picked the same port a moment before) may answer while this one exits, unable to bind it.
     */
    static void await(String what, ChildProcess child, Duration timeout, BooleanSupplier ready) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            if (!child.isAlive()) {
                throw new IllegalStateException(what + " exited during startup (code " + child.exitCode() + "); its log: "
                        + child.logFile() + "\n" + child.logTail());
            }
            if (ready.getAsBoolean() && child.isAlive()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(what + " was not ready within " + timeout + "; its log: " + child.logFile()
                        + "\n" + child.logTail());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }
}
