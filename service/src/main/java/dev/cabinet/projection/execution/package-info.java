/**
 * One event applied: its reads in one round, the stream's progress decided from its root, the plan recorded and its
 * steps carried out as idempotent conditional writes ({@link dev.cabinet.projection.execution.PlanExecutor}), and the
 * work made when a batch ends (count tokens, repair checks).
 */
package dev.cabinet.projection.execution;
