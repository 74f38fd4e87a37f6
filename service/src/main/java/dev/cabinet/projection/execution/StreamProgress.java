package dev.cabinet.projection.execution;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cabinet.projection.StreamTarget;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.core.SdkBytes;
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
    private static final int FINGERPRINT_BYTES = 8;

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
            if (deletedAt == version) {
                // Redone, whether its root is there or not: the root's delete may go out beside the deletion's other
                // steps (Rounds#deletesRootEarly), so a root gone does not prove them done. Redone after it
                // ended, each step finds its work done (and a count, its marker gone, only has its token released).
                return new StreamProgress(Kind.REDO, tombstone, true, null);
            }
            if (deletedAt >= version || isRecent(dead, eventId)) {
                return done();
            }
            if (target.creates() && root.isEmpty()) {
                // An id is never created again after its deletion: the tombstone stays, and its orphan checks would
                // delete what the new aggregate gathers (a like, a counter shard). A root beside the tombstone (made
                // so before this rule) is left to the checks below: its own creation's redo is a redo.
                return new StreamProgress(Kind.REJECTED, Optional.empty(), false, target.label() + " was deleted");
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
        if (isRecent(item, eventId)) {
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

    /**
     * The fingerprints of the latest events recorded on the item, oldest first: each the first 8 bytes of the SHA-256
     * of the event's id, in hex. The root keeps them as one binary attribute of 8 bytes each (32 of them 256 bytes,
     * where the ids as a list took about 930 and cost every busy root a second write unit; docs/capacity.md); a list
     * of ids recorded before that is read too.
     */
    public static List<String> recentIds(Map<String, AttributeValue> item) {
        AttributeValue ids = item.get(Attributes.RECENT_EVENT_IDS);
        if (ids == null) {
            return List.of();
        }
        if (ids.b() != null) {
            byte[] bytes = ids.b().asByteArray();
            List<String> fingerprints = new ArrayList<>(bytes.length / FINGERPRINT_BYTES);
            for (int at = 0; at + FINGERPRINT_BYTES <= bytes.length; at += FINGERPRINT_BYTES) {
                fingerprints.add(HexFormat.of().formatHex(bytes, at, at + FINGERPRINT_BYTES));
            }
            return fingerprints;
        }
        return ids.hasL() ? ids.l().stream().map(id -> fingerprint(id.s())).toList() : List.of();
    }

    /** Whether the event is among the latest recorded on the item. */
    static boolean isRecent(Map<String, AttributeValue> item, String eventId) {
        return recentIds(item).contains(fingerprint(eventId));
    }

    /** The recent ids after recording {@code eventId}: appended, the oldest dropped beyond {@link #RECENT_IDS}. */
    public static AttributeValue recording(Optional<Map<String, AttributeValue>> item, String eventId) {
        List<String> ids = new ArrayList<>(item.map(StreamProgress::recentIds).orElse(List.of()));
        String recorded = fingerprint(eventId);
        ids.remove(recorded);
        ids.add(recorded);
        List<String> kept = ids.subList(Math.max(0, ids.size() - RECENT_IDS), ids.size());
        byte[] bytes = new byte[kept.size() * FINGERPRINT_BYTES];
        for (int i = 0; i < kept.size(); i++) {
            System.arraycopy(HexFormat.of().parseHex(kept.get(i)), 0, bytes, i * FINGERPRINT_BYTES, FINGERPRINT_BYTES);
        }
        return AttributeValue.fromB(SdkBytes.fromByteArray(bytes));
    }

    /** The first 8 bytes of the SHA-256 of the id, in hex: two ids of one stream share it with a chance of 2^-64. */
    public static String fingerprint(String eventId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(eventId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, FINGERPRINT_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
