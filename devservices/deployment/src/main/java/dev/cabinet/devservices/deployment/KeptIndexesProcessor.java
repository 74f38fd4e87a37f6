package dev.cabinet.devservices.deployment;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;

import org.jboss.logging.Logger;

import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.AdditionalApplicationArchiveMarkerBuildItem;
import io.quarkus.deployment.builditem.LiveReloadBuildItem;
import io.quarkus.deployment.index.ApplicationArchiveBuildStep;

/**
 * Keeps the Jandex indexes Quarkus computes for dependency jars across dev-mode starts and test JVMs
 * ({@link KeptIndexes}). Every augmentation indexed about 12,500 classes that no jar carries an index of: the AWS SDK's
 * jars (7,375 classes; quarkus-amazon-services 3.14.1 marks every jar under {@code software/amazon/awssdk} as an
 * application archive, which its 3.15 line stopped doing, but 3.15 is not served here), kafka-clients, netty-transport
 * and protobuf. That was 3–4.5 s at the head of dev mode's augmentation, on its critical path (docs/dev-services.md).
 * <p>
 * Quarkus keeps those indexes in memory across live reloads, in an object of its own in the live-reload context; this
 * step puts that object there before Quarkus's archive step makes it, with {@link KeptIndexes} as its map. Nothing
 * public offers that, so the step reaches Quarkus's private class by reflection; where the class or its field is not
 * as expected (another Quarkus), it logs why and Quarkus indexes as before. {@code KeptIndexesTest} fails first then.
 * Not in a production build ({@link IsNormal}): its application is augmented once, from a clean state.
 */
class KeptIndexesProcessor {

    private static final Logger LOG = Logger.getLogger(KeptIndexesProcessor.class);

    static final String INDEX_CACHE = ApplicationArchiveBuildStep.class.getName() + "$IndexCache";
    /** When the files no start has read for a month are deleted: after the archive step has read what it needs. */
    private static final Duration FORGET_AFTER = Duration.ofMinutes(1);

    /**
     * Produces the marker CDI already declares, which changes nothing but makes Quarkus run this step before the archive
     * step, whose input it is.
     */
    @BuildStep(onlyIfNot = IsNormal.class)
    AdditionalApplicationArchiveMarkerBuildItem keepDependencyIndexes(LiveReloadBuildItem liveReload) {
        install(liveReload, KeptIndexes.defaultFolder());
        return new AdditionalApplicationArchiveMarkerBuildItem("META-INF/beans.xml");
    }

    /** Puts Quarkus's index cache, with kept indexes as its map, into the live-reload context unless one is there. */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    static boolean install(LiveReloadBuildItem liveReload, Path folder) {
        try {
            Class type = Class.forName(INDEX_CACHE, false, ApplicationArchiveBuildStep.class.getClassLoader());
            if (liveReload.getContextObject(type) != null) {
                return false; // a live reload: Quarkus's cache from the start holds every index already
            }
            Constructor<?> create = type.getDeclaredConstructor();
            create.setAccessible(true);
            Object cache = create.newInstance();
            Field map = type.getDeclaredField("cache");
            map.setAccessible(true);
            KeptIndexes kept = new KeptIndexes(folder);
            map.set(cache, kept);
            kept.forgetUnusedAfter(FORGET_AFTER);
            liveReload.setContextObject(type, cache);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.infof("Dependency indexes are not kept across starts (%s); Quarkus indexes them at every start", e);
            return false;
        }
    }
}
