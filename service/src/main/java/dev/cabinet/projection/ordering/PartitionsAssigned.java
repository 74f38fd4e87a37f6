package dev.cabinet.projection.ordering;

/**
 * Fired (asynchronously) when the projector is assigned partitions: at its start, and whenever another instance joins
 * or leaves, as the last instance of an older version does at the end of a rolling upgrade.
 */
public record PartitionsAssigned() {
}
