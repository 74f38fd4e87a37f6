/**
 * The projection engine's contract with a feature, all a feature author needs: a {@link Projector} decides, from an
 * event and the items it named ({@link Reads}), a {@link WritePlan} for the aggregate's stream ({@link StreamTarget}),
 * with {@link Derivation}s for attributes derived from a parent; the engine's settings are {@link ProjectionConfig}.
 * How the engine carries a plan out lives in the sub-packages: {@code contract} (records read as events),
 * {@code ordering} (batches, per-key order), {@code execution} (a plan turned into idempotent writes), {@code failure}
 * (retries, parking, dead letters) and {@code observability} (progress, lag, meters, traces, health). A projector
 * depends on this package only (ArchitectureTest).
 */
package dev.cabinet.projection;
