package dev.cabinet.eventlog;

/** The event topics: one per aggregate kind, keyed by aggregate id. Part of the published event contract. */
public final class Topics {

    public static final String USERS = "cabinet.users";
    public static final String POSTS = "cabinet.posts";
    public static final String GROUPS = "cabinet.groups";

    private Topics() {
    }
}
