package dev.cabinet.eventlog;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** The application's log search, run by a test with the Kafka client settings of its choosing (a role's, say). */
public final class LogSearches {

    private static final Duration WITHIN = Duration.ofSeconds(20);

    private LogSearches() {
    }

    /** What {@link LogSearch#find} answers for these settings, with a search made and closed for this one call. */
    public static Optional<LogPosition> find(Map<String, Object> settings, String topic, String key, String eventId,
            Instant sentAt) throws InterruptedException {
        LogSearch search = new LogSearch(settings);
        try {
            return search.find(topic, key, eventId, sentAt, WITHIN).await().atMost(WITHIN.plusSeconds(5));
        } finally {
            search.close();
        }
    }
}
