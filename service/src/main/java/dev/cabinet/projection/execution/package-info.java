/**
 * One event applied: its reads in one round, the stream's progress decided from its root, the plan recorded and its
 * steps carried out as idempotent conditional writes ({@link dev.cabinet.projection.execution.PlanExecutor}) in the
 * rounds a pure rule gives each ({@link dev.cabinet.projection.execution.Rounds}), and the work made when a batch ends
 * (count tokens, repair checks).
 */
package dev.cabinet.projection.execution;
