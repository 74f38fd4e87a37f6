/**
 * What the projector tells the outside: how far each partition is applied (kept in the table for read-your-writes),
 * lag and meters, traces continued from the command, and readiness.
 */
package dev.cabinet.projection.observability;
