package dev.cabinet.devservices.deployment;

import java.util.Map;
import java.util.logging.Level;

import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CuratedApplicationShutdownBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;
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
     * Begins starting the infrastructure as early as the build allows, on a thread of its own: it comes up while the
     * rest of the application is augmented, and {@link #startInfrastructure} waits for it where its addresses are
     * needed. Quarkus runs every step after logging's setup (a priority item, which waits for the application's index,
     * 2.5 s here) except the steps that logging's setup consumes; this step is one of those, by the log filter it
     * produces, so it begins with the build's first steps (docs/dev-services.md).
     */
    @BuildStep(onlyIfNot = IsNormal.class)
    InfrastructureStartingBuildItem beginStarting(OutputTargetBuildItem target,
            BuildProducer<LogCleanupFilterBuildItem> logFilters) {
        DevServicesSettings settings = DevServicesSettings.fromConfig();
        if (settings.startsAnything()) {
            RunningInfrastructure.startInBackground(settings, target.getOutputDirectory().resolve("cabinet-devservices"));
        }
        if (settings.startDynalite()) {
            // dynalite does not implement UpdateTimeToLive: on the store started here that is expected, so it is said
            // at DEBUG rather than as a warning at every start.
            logFilters.produce(new LogCleanupFilterBuildItem("dev.cabinet.table.TableBootstrap", Level.FINE,
                    "Time to live could not be checked or enabled"));
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
            RunningInfrastructure.stopAfterTheApplication();
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
