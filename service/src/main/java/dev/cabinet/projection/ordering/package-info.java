/**
 * Consuming the log: batches in flight at the same time, each {@link dev.cabinet.projection.ordering.LogKey}'s events
 * in log order across them, a bound on the keys applied at once, offsets committed only behind what is applied, static
 * group membership, the drain at shutdown, and the engine's settings ({@link ProjectionConfig}).
 */
package dev.cabinet.projection.ordering;
