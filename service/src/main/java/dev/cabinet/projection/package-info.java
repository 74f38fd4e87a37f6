/**
 * The projection engine's contract with a feature, all a feature author needs: a {@link Projector} decides, from an
 * event and the items it named ({@link Reads}), a {@link WritePlan} for the aggregate's stream ({@link StreamTarget}),
 * with {@link Derivation}s for attributes derived from a parent. docs/design.md ("The contract in ten concepts") groups
 * these and the plan's step kinds by what they are for; {@code EngineContractTest} keeps that list whole. How the
 * engine carries a plan out lives in the sub-packages: {@code contract} (records read as events), {@code ordering}
 * (batches, per-key order, the engine's settings), {@code execution} (a plan turned into idempotent writes),
 * {@code failure} (retries, parking, dead letters) and {@code observability} (progress, lag, meters, traces, health).
 * A projector depends on this package only (ArchitectureTest).
 */
package dev.cabinet.projection;
