package dev.cabinet.projection;

import java.util.Map;

import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How far an aggregate's root item has got with an event, read from the stream version the root records. The engine
 * applies a key's events one after the other, each only after the previous one's writes all succeeded, and every event
 * updates its root first: so a root at a later version proves the event was fully applied, and a root at exactly this
 * version means the event's remaining writes may have been cut short and must be redone (they are idempotent).
 */
public enum Progress {
    /** Not applied yet: decide, update the root, then write the rest. */
    NEW,
    /** The root has it, the rest may not: write the rest again, deciding nothing anew. */
    REDO,
    /** Applied, and later events too: nothing to do. */
    DONE;

    public static Progress of(Map<String, AttributeValue> root, String versionAttribute, long version) {
        if (!Items.has(root, versionAttribute)) {
            return NEW;
        }
        long seen = Items.number(root, versionAttribute);
        return seen < version ? NEW : seen == version ? REDO : DONE;
    }
}
