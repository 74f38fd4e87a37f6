package dev.cabinet.eventlog;

import java.util.List;

/** The event topics: one per aggregate kind, keyed by aggregate id. Part of the published event contract. */
public final class Topics {

    public static final String USERS = "cabinet.users";
    public static final String POSTS = "cabinet.posts";
    public static final String GROUPS = "cabinet.groups";
    public static final String FOLDERS = "cabinet.folders";
    public static final String FILES = "cabinet.files";
    public static final String METRICS = "cabinet.metrics";
    public static final String CUSTOMERS = "cabinet.customers";

    /** Every event topic; the projector consumes them all (mp.messaging.incoming.events.topics lists the same). */
    public static final List<String> ALL = List.of(USERS, POSTS, GROUPS, FOLDERS, FILES, METRICS, CUSTOMERS);

    /**
     * Where events that cannot be applied are to be parked with their reason. Declared with the event topics in
     * deploy/k8s; the dead-letter path that writes to it is not built yet.
     */
    public static final String DEAD_LETTERS = "cabinet.dead-letters";

    private Topics() {
    }
}
