package dev.cabinet.table.query;

/** The client's page size and cursor, already checked against the configured bounds. */
public record PageRequest(int limit, String cursor) {
}
