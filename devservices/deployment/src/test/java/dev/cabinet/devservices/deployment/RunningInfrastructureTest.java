package dev.cabinet.devservices.deployment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start begun in the background still registers the hook that stops the children when the JVM exits: tests have no
 * other stop, and without it every test JVM left its broker, dynalite and s3proxy running.
 */
class RunningInfrastructureTest {

    @TempDir
    Path stateDir;

    @AfterEach
    void stop() {
        RunningInfrastructure.stopAll();
    }

    @Test
    void aStartBegunInTheBackgroundIsStoppedWhenTheJvmExits() {
        DevServicesSettings nothing = new DevServicesSettings(false, DevServicesSettings.KafkaMode.LAUNCHER, false,
                false, "bucket", List.of(), 1, "4.1.2", "", "node", "npm", Duration.ofSeconds(5),
                dev.cabinet.devservices.launcher.IndexLag.NONE, null, null);
        RunningInfrastructure.startInBackground(nothing, stateDir);
        assertTrue(RunningInfrastructure.stoppedAtExit(), "the shutdown hook is registered before the start returns");
        RunningInfrastructure.provided(nothing, stateDir);
        assertTrue(RunningInfrastructure.stoppedAtExit(), "and stays registered once the start is done");
        RunningInfrastructure.stopAll();
        assertFalse(RunningInfrastructure.stoppedAtExit(), "stopAll takes the hook back");
    }
}
