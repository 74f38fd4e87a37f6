package dev.cabinet.benchmark;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import dev.cabinet.devservices.launcher.LaunchSettings;

/**
 * dynalite with a request recorder preloaded (record-requests.js, started through a small wrapper as its Node
 * command), and the recordings it makes: every request the store served between {@link #start} and {@link #stop},
 * in the order their bodies arrived, for a replay of the projector's own calls.
 */
final class StoreRecorder {

    /** At most this many requests a recording (a rebuild makes a few hundred thousand; the replay needs fewer). */
    static final int MAX_REQUESTS = 200_000;

    private final Path wrapper;
    private final Path recording;

    private StoreRecorder(Path wrapper, Path recording) {
        this.wrapper = wrapper;
        this.recording = recording;
    }

    /** Writes the recorder and its wrapper into {@code dir}. */
    static StoreRecorder install(Path dir) {
        try {
            Files.createDirectories(dir);
            Path script = dir.resolve("record-requests.js");
            try (InputStream in = StoreRecorder.class.getResourceAsStream("record-requests.js")) {
                Files.write(script, in.readAllBytes());
            }
            Path recording = dir.resolve("dynalite-requests.tsv");
            Path wrapper = dir.resolve("node-recording");
            Files.writeString(wrapper, "#!/bin/sh\n"
                    + "CABINET_RECORDING='" + recording + "' CABINET_RECORDING_MAX=" + MAX_REQUESTS
                    + " exec node --require '" + script + "' \"$@\"\n");
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
            return new StoreRecorder(wrapper, recording);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The default launch settings, with dynalite's Node command the recording wrapper. */
    LaunchSettings settings() {
        LaunchSettings defaults = LaunchSettings.defaults();
        return new LaunchSettings(defaults.kafkaVersion(), defaults.brokerJvmOptions(), wrapper.toString(),
                defaults.npmCommand(), defaults.startTimeout());
    }

    /** Starts recording the requests the store with this pid serves, once it has said it records. */
    void start(long storePid) throws IOException {
        Files.deleteIfExists(recording);
        signal(storePid);
        await("dynalite starting a recording").atMost(Duration.ofSeconds(10))
                .until(() -> Files.exists(Path.of(recording + ".on")));
    }

    /**
     * Ends the recording and returns it, one request a line (operation, a tab, its JSON body); the file stays beside
     * the recorder as {@code <name>-requests.tsv}, for a look at what the projector sent.
     */
    List<String> stop(long storePid, String name) throws IOException {
        signal(storePid);
        await("dynalite writing its recording").atMost(Duration.ofSeconds(60)).until(() -> Files.exists(recording));
        Path kept = Files.move(recording, recording.resolveSibling(name + "-requests.tsv"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return Files.readAllLines(kept, StandardCharsets.UTF_8);
    }

    private static void signal(long pid) throws IOException {
        try {
            int exit = new ProcessBuilder("kill", "-USR2", Long.toString(pid)).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IOException("kill -USR2 " + pid + " exited with " + exit);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
