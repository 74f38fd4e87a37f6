/**
 * What happens when an event does not apply: transient store errors retried with backoff until the store answers,
 * rejections recorded, an unappliable record copied to the dead-letter topic and its key parked until an operator
 * releases it.
 */
package dev.cabinet.projection.failure;
