package dev.cabinet.table;

import dev.cabinet.table.Key;

/**
 * A counter change that must happen exactly once although events can be delivered more than once: {@code delta} on
 * {@code attribute} of the {@code counter} item, caused by the {@code marker} item (the child being counted), whose
 * {@code markerFlag} records that it was counted, with the causing event's id as {@code token}. See
 * {@link TableWriter#countOnce}.
 */
public record CounterChange(Key counter, String counterType, String attribute, long delta, Key marker, String markerFlag,
        String token) {
}
