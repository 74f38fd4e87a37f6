package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Loopback port helpers: pick a free port, and wait until a child process listens on one. */
final class FreePorts {

    static final String LOOPBACK = "127.0.0.1";

    private FreePorts() {
    }

    static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
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

    /** Polls {@code ready} until it holds, the child died, or the timeout passed; a startup wait, not a test sleep. */
    static void await(String what, ChildProcess child, Duration timeout, BooleanSupplier ready) {
        Instant deadline = Instant.now().plus(timeout);
        while (!ready.getAsBoolean()) {
            if (!child.isAlive()) {
                throw new IllegalStateException(what + " exited during startup (code " + child.exitCode() + "); its log: "
                        + child.logFile() + "\n" + child.logTail());
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
