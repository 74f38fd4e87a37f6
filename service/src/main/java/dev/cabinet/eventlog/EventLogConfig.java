package dev.cabinet.eventlog;

import java.time.Duration;
import java.util.Map;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the event log. */
@ConfigMapping(prefix = "cabinet.events")
public interface EventLogConfig {

    /** The CloudEvents {@code source} of every event this instance writes. */
    @WithDefault("/cabinet")
    String source();

    /**
     * Partitions of every event topic: the most projector instances that share the work. The topics in deploy/k8s and
     * the ones Dev Services create have this many; a running cluster's topics must match. Set in application.properties,
     * where the Dev Services read it while the application is built.
     */
    int partitions();

    /**
     * How long a command waits for the log to acknowledge its event before it answers 503 with an unknown outcome;
     * below the request deadline, and below the producer's delivery timeout (the producer keeps trying after it).
     */
    @WithDefault("4s")
    Duration ackTimeout();

    /**
     * How long after a send's last failure the log may still come to hold a record its partition's leader took: a
     * record that a stalled follower has not copied stays above the high watermark, where no reader sees it, until the
     * leader drops that follower from the in-sync replicas (the brokers' {@code replica.lag.time.max.ms}, 30 s by
     * default, checked every half of it). Until the producer's request timeout and this have passed, an event whose
     * sends all failed reads as {@code pending}, never {@code never-appended}. 0 where each partition has a single
     * replica, as the dev and test broker.
     */
    @WithDefault("45s")
    Duration replicaLag();

    /**
     * The version to write of an event type, by its name without the version, while readers of the newer one are not
     * all deployed yet (a rolling upgrade, other services' consumers): e.g.
     * {@code cabinet.events.write-version."cabinet.customer.order-placed"=1}. A type not named here is written in its
     * current version; only a version declared with a downcast can be named, and a name that matches no event type, or
     * a version its type cannot be written as, is refused at start. The key's quotes, dots and dash have no
     * environment-variable spelling (so no ConfigMap entry): on Kubernetes mount it in a
     * {@code config/application.properties} beside the application ({@code /deployments/config/} in the image), or pass
     * it as a JVM option appended to the image's {@code JAVA_OPTS_APPEND}, keeping the options the Dockerfile puts
     * there.
     */
    Map<String, Integer> writeVersion();
}
