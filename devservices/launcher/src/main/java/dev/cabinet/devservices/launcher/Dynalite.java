package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * dynalite (the MIT-licensed DynamoDB emulator) in a child Node process, in memory, on a free loopback port. Its npm
 * package is installed once by {@link NpmPackages}.
 */
public final class Dynalite implements AutoCloseable {

    /** Keeps dynalite up when a client dies mid-request (see the file). */
    private static final String GUARD = "survive-aborted-requests.js";
    /** Knobs that make dynalite behave as DynamoDB does where it does not, set at run time (see the file). */
    private static final String HOOKS = "store-hooks.js";

    private final ChildProcess process;
    private final int port;

    private Dynalite(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    public static Dynalite start(LaunchSettings settings, Path stateDir, OrphanRegistry registry) {
        Path installDir = NpmPackages.install(settings, "dynalite", "node_modules/dynalite/cli.js");
        int port = FreePorts.pick();
        Path guard = stateDir.resolve(GUARD);
        Path hooks = stateDir.resolve(HOOKS);
        try {
            Files.createDirectories(stateDir);
            // Whole files moved into place: another JVM of this checkout (a second test fork) may be starting its own
            // dynalite from them at this moment.
            WholeFiles.write(guard, NpmPackages.resource("dynalite", GUARD));
            WholeFiles.write(hooks, NpmPackages.resource("dynalite", HOOKS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = List.of(settings.nodeCommand(), "--require", guard.toString(), "--require",
                hooks.toString(),
                installDir.resolve("node_modules/dynalite/cli.js").toString(),
                "--host", FreePorts.LOOPBACK, "--port", Integer.toString(port),
                // Tables become ACTIVE at once instead of after dynalite's default 500 ms.
                "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0");
        ChildProcess process = ChildProcess.start("dynalite", command, installDir, stateDir.resolve("dynalite-" + port + ".log"),
                registry);
        Dynalite dynalite = new Dynalite(process, port);
        try {
            FreePorts.await("dynalite", process, settings.startTimeout(), () -> FreePorts.accepts(port));
            return dynalite;
        } catch (RuntimeException e) {
            dynalite.close();
            throw e;
        }
    }

    public String endpoint() {
        return "http://" + FreePorts.LOOPBACK + ":" + port;
    }

    /** The store's run-time knobs (store-hooks.js): see {@link StoreHooks}. */
    public StoreHooks hooks() {
        return new StoreHooks(endpoint());
    }

    /** Freezes the process (SIGSTOP): connections hang and calls time out, as with a store that stopped answering. */
    public void pause() {
        process.signal("STOP");
    }

    /** Lets a paused process run again (SIGCONT), with all its data. */
    public void resume() {
        process.signal("CONT");
    }

    @Override
    public void close() {
        process.close();
    }
}
