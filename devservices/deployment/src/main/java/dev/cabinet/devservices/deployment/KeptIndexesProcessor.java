package dev.cabinet.devservices.deployment;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jboss.jandex.Index;
import org.jboss.logging.Logger;

import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.AdditionalApplicationArchiveMarkerBuildItem;
import io.quarkus.deployment.builditem.ApplicationArchivesBuildItem;
import io.quarkus.deployment.builditem.LiveReloadBuildItem;
import io.quarkus.deployment.index.ApplicationArchiveBuildStep;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.maven.dependency.ResolvedDependency;

/**
 * Keeps the Jandex indexes Quarkus computes for dependency jars across dev-mode starts and test JVMs
 * ({@link KeptIndexes}). Every augmentation indexed about 12,500 classes that no jar carries an index of: the AWS SDK's
 * jars (7,375 classes; quarkus-amazon-services 3.14.1 marks every jar under {@code software/amazon/awssdk} as an
 * application archive, which its 3.15 line stopped doing, but 3.15 is not served here), kafka-clients, netty-transport
 * and protobuf. That was 4–5.5 s at the head of dev mode's augmentation, on its critical path (docs/dev-services.md).
 * <p>
 * Quarkus keeps those indexes in memory across live reloads, in an object of its own in the live-reload context. At a
 * start, {@link #readKeptIndexes} makes that object before Quarkus's archive step would, with the kept indexes in its
 * map, and {@link #keepNewIndexes} writes the ones the archive step added. Nothing public offers that, so the steps
 * reach Quarkus's private class by reflection (its constructor, and a read of its map); where the class or its field is
 * not as expected (another Quarkus), they log why and Quarkus indexes as before. {@code KeptIndexesTest} fails first
 * then. Not in a production build ({@link IsNormal}): its application is augmented once, from a clean state.
 */
class KeptIndexesProcessor {

    private static final Logger LOG = Logger.getLogger(KeptIndexesProcessor.class);

    static final String INDEX_CACHE = ApplicationArchiveBuildStep.class.getName() + "$IndexCache";
    /** When the files no start has read for a month are deleted: after the archive step has read what it needs. */
    private static final Duration FORGET_AFTER = Duration.ofMinutes(1);
    private static final KeptIndexes KEPT = new KeptIndexes(KeptIndexes.defaultFolder());

    /**
     * Produces the marker CDI already declares, which changes nothing but makes Quarkus run this step before the archive
     * step, whose input it is. A live reload finds Quarkus's cache of the start, which holds every index already.
     */
    @BuildStep(onlyIfNot = IsNormal.class)
    AdditionalApplicationArchiveMarkerBuildItem readKeptIndexes(LiveReloadBuildItem liveReload,
            CurateOutcomeBuildItem curateOutcome) {
        newIndexCache(liveReload).ifPresent(indexes -> {
            int read = KEPT.readInto(indexes, jars(curateOutcome));
            LOG.debugf("%d kept dependency indexes read", read);
            KEPT.forgetUnusedAfter(FORGET_AFTER);
        });
        return new AdditionalApplicationArchiveMarkerBuildItem("META-INF/beans.xml");
    }

    /**
     * Runs once the archive step has indexed what it needed; declared as a producer of log filters (it produces none)
     * because logging's setup, which waits for the application's index anyway, consumes them: a step nothing consumes
     * is never run.
     */
    @BuildStep(onlyIfNot = IsNormal.class)
    void keepNewIndexes(LiveReloadBuildItem liveReload, ApplicationArchivesBuildItem archives,
            BuildProducer<LogCleanupFilterBuildItem> runsBeforeLogging) {
        indexCache(liveReload).ifPresent(KEPT::keepLater);
    }

    /** Every file of the application's runtime dependencies. */
    private static List<Path> jars(CurateOutcomeBuildItem curateOutcome) {
        List<Path> jars = new ArrayList<>();
        for (ResolvedDependency dependency : curateOutcome.getApplicationModel().getRuntimeDependencies()) {
            dependency.getResolvedPaths().forEach(jars::add);
        }
        return jars;
    }

    /** Quarkus's index cache, made now and put into the live-reload context; empty if one is there or it cannot be. */
    static Optional<Map<Path, Index>> newIndexCache(LiveReloadBuildItem liveReload) {
        try {
            Class<Object> type = indexCacheType();
            if (liveReload.getContextObject(type) != null) {
                return Optional.empty();
            }
            Constructor<Object> create = type.getDeclaredConstructor();
            create.setAccessible(true);
            Object cache = create.newInstance();
            liveReload.setContextObject(type, cache);
            return Optional.of(indexes(type, cache));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.infof("Dependency indexes are not kept across starts (%s); Quarkus indexes them at every start", e);
            return Optional.empty();
        }
    }

    /** The map of Quarkus's index cache in the live-reload context, if there is one. */
    static Optional<Map<Path, Index>> indexCache(LiveReloadBuildItem liveReload) {
        try {
            Class<Object> type = indexCacheType();
            Object cache = liveReload.getContextObject(type);
            return cache == null ? Optional.empty() : Optional.of(indexes(type, cache));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debugf(e, "Quarkus's dependency indexes cannot be read; none is kept");
            return Optional.empty();
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> indexCacheType() throws ClassNotFoundException {
        return (Class<Object>) Class.forName(INDEX_CACHE, false, ApplicationArchiveBuildStep.class.getClassLoader());
    }

    @SuppressWarnings("unchecked")
    private static Map<Path, Index> indexes(Class<Object> type, Object cache) throws ReflectiveOperationException {
        Field map = type.getDeclaredField("cache");
        map.setAccessible(true);
        return (Map<Path, Index>) map.get(cache);
    }
}
