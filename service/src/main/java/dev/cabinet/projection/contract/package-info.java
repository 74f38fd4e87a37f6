/**
 * The event contract as the projector reads it: a Kafka record as a CloudEvent in either content mode, decoded and
 * validated against the published schema of its type, on the partition its key belongs on; what cannot be read is an
 * {@link dev.cabinet.projection.failure.UnappliableEventException}.
 */
package dev.cabinet.projection.contract;
