package dev.cabinet.table;

/** How {@link TableWriter#forEach} walks a query's items: how many it reads per page and acts on at the same time. */
public record Walk(int pageSize, int concurrency) {
}
