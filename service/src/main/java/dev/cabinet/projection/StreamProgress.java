package dev.cabinet.projection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How far an aggregate's stream has got with an event, decided from its root and tombstone as read (pure: the
 * {@link PlanExecutor} reads, this decides). The engine applies a key's events one after the other and every event
 * records itself on the root (a deletion on the tombstone) before anything else, with its offset as the stream version
 * and its remaining steps: so a later version proves the event fully applied, the same version means its steps may
 * have been cut short (redo them as recorded), and an event id among the root's recent ones is a duplicate record of an
 * event already applied (a command retried with the same event id reaches the log twice, the second time later).
 */
public record StreamProgress(Kind kind, Optional<Map<String, AttributeValue>> recordedOn, boolean onTombstone,
        String rejection) {

    /** How many event ids a root keeps: a duplicate record further behind than this is no longer recognized. */
    public static final int RECENT_IDS = 32;

    /** What the executor does with the event. */
    public enum Kind {
        /** Not applied yet: decide, record it on the root, carry out the steps. */
        NEW,
        /** Recorded on the root (or tombstone), its steps perhaps not all done: redo the recorded steps. */
        REDO,
        /** Applied (or a duplicate of an applied event): nothing to do, nothing to reject. */
        DONE,
        /** Cannot apply: a creation that finds its aggregate, any other event that does not. */
        REJECTED
    }

    public static StreamProgress of(StreamTarget target, Optional<Map<String, AttributeValue>> root,
            Optional<Map<String, AttributeValue>> tombstone, String eventId, long version) {
        String versionAttribute = target.stream().versionAttribute();
        if (tombstone.isPresent()) {
            // A deletion is recorded on the tombstone; a tombstone at or past this event ends (or redoes) it.
            Map<String, AttributeValue> dead = tombstone.get();
            long deletedAt = Items.has(dead, versionAttribute) ? Items.number(dead, versionAttribute) : -1;
            if (deletedAt == version && root.isPresent()) {
                return new StreamProgress(Kind.REDO, tombstone, true, null);
            }
            if (deletedAt >= version || recentIds(dead).contains(eventId)) {
                return done();
            }
        }
        if (root.isEmpty()) {
            if (target.creates() || target.upserts()) {
                return new StreamProgress(Kind.NEW, Optional.empty(), false, null);
            }
            return new StreamProgress(Kind.REJECTED, Optional.empty(), false, target.label() + " does not exist");
        }
        Map<String, AttributeValue> item = root.get();
        if (Items.has(item, versionAttribute)) {
            long seen = Items.number(item, versionAttribute);
            if (seen == version) {
                return new StreamProgress(Kind.REDO, root, false, null);
            }
            if (seen > version) {
                return done();
            }
        }
        if (recentIds(item).contains(eventId)) {
            return done();
        }
        if (target.creates()) {
            return new StreamProgress(Kind.REJECTED, root, false, target.label() + " already exists");
        }
        return new StreamProgress(Kind.NEW, root, false, null);
    }

    /** The progress of an event without a stream: always new (its writes are facts, the same however often). */
    public static StreamProgress fact() {
        return new StreamProgress(Kind.NEW, Optional.empty(), false, null);
    }

    private static StreamProgress done() {
        return new StreamProgress(Kind.DONE, Optional.empty(), false, null);
    }

    /** The ids of the latest events recorded on the item, oldest first. */
    public static List<String> recentIds(Map<String, AttributeValue> item) {
        AttributeValue ids = item.get(Attributes.RECENT_EVENT_IDS);
        return ids == null || !ids.hasL() ? List.of() : ids.l().stream().map(AttributeValue::s).toList();
    }

    /** The recent ids after recording {@code eventId}: appended, the oldest dropped beyond {@link #RECENT_IDS}. */
    public static List<String> recording(Optional<Map<String, AttributeValue>> item, String eventId) {
        List<String> ids = new ArrayList<>(item.map(StreamProgress::recentIds).orElse(List.of()));
        ids.remove(eventId);
        ids.add(eventId);
        return List.copyOf(ids.subList(Math.max(0, ids.size() - RECENT_IDS), ids.size()));
    }
}
