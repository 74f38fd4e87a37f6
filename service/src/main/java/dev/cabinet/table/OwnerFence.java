package dev.cabinet.table;

/**
 * The log partition an event was applied under and that partition's owner epoch when the batch was admitted: a counter
 * change carrying it is refused once a count under a newer owner of the same partition reached the counter, so an
 * attempt that lost its partition without knowing (a stall longer than the session) cannot count again what the next
 * owner counted and released. See {@link TableWriter#countOnce} and docs/design.md, "Owner epochs".
 */
public record OwnerFence(String topic, int partition, long epoch) {

    /** What the counter attributes that hold epochs begin with. */
    public static final String ATTRIBUTE_PREFIX = "epoch#";

    public OwnerFence {
        if (epoch < 1) {
            throw new IllegalArgumentException("owner epochs start at 1, not " + epoch);
        }
    }

    /** The counter's attribute that holds the newest epoch of this partition that counted on it. */
    public String attribute() {
        return ATTRIBUTE_PREFIX + topic + "#" + partition;
    }

    /**
     * Whether the attribute holds an owner epoch: bookkeeping of the ownerships that counted on the item, which a
     * rebuild keeps (it lowers no fence) and a comparison of two tables leaves out (each table has its own owners).
     */
    public static boolean isEpochAttribute(String attribute) {
        return attribute.startsWith(ATTRIBUTE_PREFIX);
    }
}
