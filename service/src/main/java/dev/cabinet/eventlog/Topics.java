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
     * Where the projector copies a record that cannot be applied, with the reason in {@code cabinet_dlq_*} headers; the
     * record's key is parked until an operator retries or discards it (see {@code GET /admin/parked-keys}).
     */
    public static final String DEAD_LETTERS = "cabinet.dead-letters";

    private Topics() {
    }

    /** The topic as a table key names it ({@code topicId}: its dots as dashes). */
    public static String keyId(String topic) {
        return topic.replace('.', '-');
    }
}
