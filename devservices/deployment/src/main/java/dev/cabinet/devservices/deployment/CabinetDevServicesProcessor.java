package dev.cabinet.devservices.deployment;

import java.nio.file.Path;

import org.jboss.logging.Logger;

import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CuratedApplicationShutdownBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.pkg.builditem.OutputTargetBuildItem;

/**
 * Docker-free Dev Services: in dev mode and tests, starts a real Kafka broker and dynalite when their endpoints are not
 * configured, and hands their addresses to the application. The infrastructure lives in a static field so live reload
 * and every test class of one JVM reuse it; it stops when the curated application closes, after the application stopped.
 */
public class CabinetDevServicesProcessor {

    static final String FEATURE = "cabinet-devservices";
    private static final Logger LOG = Logger.getLogger(CabinetDevServicesProcessor.class);

    private static RunningInfrastructure running;

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep(onlyIfNot = IsNormal.class)
    synchronized DevServicesResultBuildItem startInfrastructure(OutputTargetBuildItem target,
            CuratedApplicationShutdownBuildItem shutdown) {
        DevServicesSettings settings = DevServicesSettings.fromConfig();
        if (running != null && !running.matches(settings)) {
            LOG.info("Dev Services settings changed: restarting the Kafka broker and dynalite");
            stopRunning();
        }
        if (!settings.startsAnything()) {
            return null;
        }
        if (running == null) {
            Path stateDir = target.getOutputDirectory().resolve("cabinet-devservices");
            running = RunningInfrastructure.start(settings, stateDir);
            // Runs once the curated application closes: after the application itself stopped, so its producers and
            // consumers never see the broker vanish under them.
            shutdown.addCloseTask(CabinetDevServicesProcessor::stopRunning, true);
        }
        return DevServicesResultBuildItem.discovered()
                .feature(FEATURE)
                .description("Kafka broker and dynalite, without Docker")
                .config(running.config())
                .build();
    }

    private static synchronized void stopRunning() {
        if (running != null) {
            running.close();
            running = null;
        }
    }
}
