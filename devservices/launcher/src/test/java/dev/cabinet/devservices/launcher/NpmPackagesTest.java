package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a finished install takes its place in the cache, when another JVM may have installed the same one first. */
class NpmPackagesTest {

    private static final String ENTRY = "node_modules/tool/cli.js";

    @TempDir
    Path cache;

    @Test
    void aFinishedInstallMovesIntoItsPlace() throws IOException {
        Path staging = install(cache.resolve("staging"), "ours");
        Path target = cache.resolve("tool-1234");
        NpmPackages.moveIntoPlace(staging, target, ENTRY);
        assertEquals("ours", Files.readString(target.resolve(ENTRY)));
    }

    @Test
    void anInstallBeatenByAnotherJvmsLeavesTheirsInPlace() throws IOException {
        Path target = install(cache.resolve("tool-1234"), "theirs");
        Path staging = install(cache.resolve("staging"), "ours");
        NpmPackages.moveIntoPlace(staging, target, ENTRY);
        assertEquals("theirs", Files.readString(target.resolve(ENTRY)));
        StaleState.deleteTree(staging);
        assertTrue(Files.notExists(staging));
    }

    @Test
    void aTargetWithoutTheEntryIsNoInstallAndTheMoveFails() throws IOException {
        Path target = cache.resolve("tool-1234");
        Files.createDirectories(target.resolve("node_modules"));
        Files.writeString(target.resolve("node_modules/half"), "");
        Path staging = install(cache.resolve("staging"), "ours");
        assertThrows(IOException.class, () -> NpmPackages.moveIntoPlace(staging, target, ENTRY));
    }

    /** An install that does not finish says what npm last printed: the log is deleted with its staging folder. */
    @Test
    void anInstallThatTimesOutSaysWhatNpmWasDoing() throws IOException {
        Path npm = cache.resolve("npm");
        Files.writeString(npm, "#!/bin/sh\necho 'fetch GET https://registry.example/dynalite: waiting'\nexec sleep 30\n");
        Files.setPosixFilePermissions(npm, PosixFilePermissions.fromString("rwx------"));
        LaunchSettings slow = new LaunchSettings("4.1.2", "", "node", npm.toString(), Duration.ofMillis(500));
        Path staging = Files.createDirectories(cache.resolve("staging"));
        IllegalStateException timedOut = assertThrows(IllegalStateException.class,
                () -> NpmPackages.runNpmCi(slow, "dynalite", staging));
        assertTrue(timedOut.getMessage().contains("registry.example/dynalite: waiting"), timedOut.getMessage());
    }

    private static Path install(Path folder, String content) throws IOException {
        Files.createDirectories(folder.resolve(ENTRY).getParent());
        Files.writeString(folder.resolve(ENTRY), content);
        return folder;
    }
}
