package dev.cabinet.devservices;

import java.util.Map;

/**
 * How the application reads a record of its own log, for the Dev UI's log view: a bean of the application implements
 * it, so the view shows each event as the projectors see it (its current version, its sealed values opened) beside
 * the record as the log holds it. Without such a bean the view shows only the record.
 */
public interface LoggedEventReader {

    /** What {@link #read} answers: the current type and data (JSON), or why the record cannot be read. */
    record Reading(String type, String data, String problem) {

        public static Reading of(String type, String data) {
            return new Reading(type, data, null);
        }

        public static Reading unreadable(String problem) {
            return new Reading(null, null, problem);
        }
    }

    /**
     * The record's event as the application's projectors read it. Called on a worker thread; it may block on the
     * application's store (a person's data key) for a few seconds.
     */
    Reading read(String topic, int partition, long offset, String key, Map<String, byte[]> headers, byte[] value);
}
