/**
 * Consuming the log: batches in flight at the same time, each {@link dev.cabinet.projection.ordering.LogKey}'s events
 * in log order across them, a bound on the keys applied at once, offsets committed only behind what is applied, static
 * group membership, and the drain at shutdown.
 */
package dev.cabinet.projection.ordering;
