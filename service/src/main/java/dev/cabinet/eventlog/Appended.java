package dev.cabinet.eventlog;

/** What the log acknowledged: the event's id and the record's position. */
public record Appended(String eventId, String type, LogPosition position) {
}
