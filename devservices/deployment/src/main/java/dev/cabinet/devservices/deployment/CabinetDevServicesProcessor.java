package dev.cabinet.devservices.deployment;

import java.util.Map;

import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CuratedApplicationShutdownBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.pkg.builditem.OutputTargetBuildItem;
import io.quarkus.runtime.LaunchMode;

/**
 * Docker-free Dev Services: in dev mode and tests, starts a real Kafka broker, dynalite and s3proxy when their endpoints are not
 * configured, and hands their addresses to the application. The infrastructure lives in a static field so live reload,
 * every test class and every test profile of one JVM reuse it. In dev mode it stops when the curated application
 * closes, after the application stopped; in tests, and at the latest, when the JVM exits.
 */
public class CabinetDevServicesProcessor {

    static final String FEATURE = "cabinet-devservices";

    private static boolean closeTaskRegistered;

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * Begins starting the infrastructure as early as the build allows (its inputs are among the first items built), on
     * a thread of its own: it comes up while the rest of the application is augmented, and
     * {@link #startInfrastructure} waits for it where its addresses are needed.
     */
    @BuildStep(onlyIfNot = IsNormal.class)
    InfrastructureStartingBuildItem beginStarting(OutputTargetBuildItem target) {
        DevServicesSettings settings = DevServicesSettings.fromConfig();
        if (settings.startsAnything()) {
            RunningInfrastructure.startInBackground(settings, target.getOutputDirectory().resolve("cabinet-devservices"));
        }
        return new InfrastructureStartingBuildItem();
    }

    @BuildStep(onlyIfNot = IsNormal.class)
    synchronized DevServicesResultBuildItem startInfrastructure(LaunchModeBuildItem launchMode, OutputTargetBuildItem target,
            CuratedApplicationShutdownBuildItem shutdown, InfrastructureStartingBuildItem starting) {
        DevServicesSettings settings = DevServicesSettings.fromConfig();
        if (!settings.startsAnything()) {
            return null;
        }
        Map<String, String> config = RunningInfrastructure.provided(settings,
                target.getOutputDirectory().resolve("cabinet-devservices"));
        if (launchMode.getLaunchMode() == LaunchMode.DEVELOPMENT && !closeTaskRegistered) {
            // Runs once dev mode's curated application closes: after the application itself stopped, so its
            // producers and consumers never see the broker vanish under them. Tests share the infrastructure for the
            // whole JVM instead: Quarkus may close one test application's curated application while another,
            // augmented with these addresses, is still to start. The JVM's exit stops it then.
            shutdown.addCloseTask(CabinetDevServicesProcessor::stopAfterDevMode, true);
            closeTaskRegistered = true;
        }
        return DevServicesResultBuildItem.discovered()
                .feature(FEATURE)
                .description("Kafka broker, dynalite and s3proxy, without Docker")
                .config(config)
                .build();
    }

    private static synchronized void stopAfterDevMode() {
        RunningInfrastructure.stopAll();
        closeTaskRegistered = false;
    }
}
