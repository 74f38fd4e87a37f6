package dev.cabinet.table;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A counter change that must happen exactly once although events can be delivered more than once: {@code delta} on
 * {@code attribute} of the {@code counter} item, caused by the {@code marker} item (the child being counted), whose
 * {@code markerFlag} records the {@code version} (the causing event's offset) that counted it, with the causing
 * event's id as {@code token}; {@code fence}, when not null, the owner epoch of the log partition it was applied under
 * (null: an operator's retry, a test: no fence). See {@link TableWriter#countOnce}.
 */
public record CounterChange(Key counter, String counterType, String attribute, long delta, Key marker, String markerFlag,
        String token, long version, OwnerFence fence) {

    /** A change made outside any partition's ownership: no fence. */
    public CounterChange(Key counter, String counterType, String attribute, long delta, Key marker, String markerFlag,
            String token, long version) {
        this(counter, counterType, attribute, delta, marker, markerFlag, token, version, null);
    }

    /**
     * Whether an attribute of a counter is the counting's bookkeeping rather than a count: its pending tokens, released
     * when a batch ends, and its owner epochs. A reader sees neither; an entity tag leaves them out.
     */
    public static boolean isBookkeeping(String attribute) {
        return TableWriter.PENDING_COUNTS.equals(attribute) || OwnerFence.isEpochAttribute(attribute);
    }

    /**
     * Whether the marker says this change was counted: its flag holds this change's version. A flag is a version, not a
     * yes, so that a flag written late (at the end of its batch) for an earlier event never passes for a later event's
     * count of the same marker (a like, an unlike and a like again in one batch). A flag written as {@code true}
     * before flags were versions counts as counted.
     */
    public static boolean counted(Map<String, AttributeValue> marker, String markerFlag, long version) {
        AttributeValue flag = marker.get(markerFlag);
        if (flag == null) {
            return false;
        }
        return Boolean.TRUE.equals(flag.bool()) || flag.n() != null && Long.parseLong(flag.n()) == version;
    }
}
