package dev.cabinet.eventlog;

/** The event topics: one per aggregate kind, keyed by aggregate id. Part of the published event contract. */
public final class Topics {

    public static final String USERS = "cabinet.users";
    public static final String POSTS = "cabinet.posts";
    public static final String GROUPS = "cabinet.groups";
    public static final String FOLDERS = "cabinet.folders";
    public static final String FILES = "cabinet.files";
    public static final String METRICS = "cabinet.metrics";
    public static final String CUSTOMERS = "cabinet.customers";

    private Topics() {
    }
}
