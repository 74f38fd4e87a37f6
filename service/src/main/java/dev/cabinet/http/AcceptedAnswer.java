package dev.cabinet.http;

import java.util.Map;

/**
 * A command's 202 body: what {@code Prefer: wait} reads of it and keeps in the answer it ends with, whatever else the
 * command answers (a file's upload link).
 */
public interface AcceptedAnswer {

    String eventId();

    String type();

    /** The consistency token of the event: {@code topic:partition:offset}. */
    String position();

    String id();

    /** The answer's fields beyond the four above, by name, which the answer after a wait carries too. */
    default Map<String, Object> more() {
        return Map.of();
    }
}
