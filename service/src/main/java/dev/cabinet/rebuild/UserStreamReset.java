package dev.cabinet.rebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.AggregateStream;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items a user's stream owns (pure): the record key of {@code cabinet.users} is the user id, and the stream owns
 * only its profile ({@code USER#{userId} / PROFILE}, its root); the rest of the partition, the post summaries and the
 * user side of memberships, is the post and group streams'. The profile is not deleted but emptied of everything but
 * what others keep on it: {@code postCount}, which the post streams count exactly once per event, and the tokens of
 * their counts in flight ({@code pendingCounts}) and the owner epochs of the partitions that counted ({@code
 * epoch#...}); the replayed registration sets the count only where it is absent, so
 * it is neither reset nor counted again, and nothing needs holding. The user's name copied onto posts, comments and
 * memberships is the holders' streams' to rebuild (they copy the current name); the replay's refresh of those copies
 * changes none that is as new as the profile. An erased person's profile is not reset: the replay changes nothing of it
 * (the projector leaves an erased profile as it is), and its {@code erasedAt} must never be missing.
 */
final class UserStreamReset implements StreamReset {

    /** What the profile keeps: its key and type, and what the post streams count on it. */
    static final Set<String> KEPT = Set.of(Key.PK, Key.SK, KeyPlan.TYPE, Attributes.POST_COUNT,
            TableWriter.PENDING_COUNTS);

    @Override
    public String topic() {
        return Topics.USERS;
    }

    @Override
    public AggregateStream stream() {
        return KeyPlan.USER_STREAM;
    }

    @Override
    public Optional<String> notAStream(String key, List<RecordedEvent> events) {
        return StreamReset.nameTheKey(key, events, Attributes.USER_ID) ? Optional.empty()
                : Optional.of("not a user's (they do not name " + key + " as their user)");
    }

    @Override
    public Reset reset(String userId, List<Map<String, AttributeValue>> partition, List<RecordedEvent> events) {
        Key profile = KeyPlan.USER_PROFILE.key(userId);
        List<ItemUpdate> resets = new ArrayList<>();
        for (Map<String, AttributeValue> item : partition) {
            if (!Key.of(item).equals(profile) || item.containsKey(Attributes.ERASED_AT)) {
                // An erased profile stays as the erasure left it: emptied, it would answer 200 (and take the person's
                // commands) until the replayed erasure, and for good should the replay stop before it.
                continue;
            }
            Set<String> removed = new TreeSet<>(item.keySet());
            removed.removeAll(KEPT);
            removed.removeIf(OwnerFence::isEpochAttribute);   // the post streams' counts' fences: never lowered
            if (!removed.isEmpty()) {
                ItemUpdate update = ItemUpdate.of(profile);
                removed.forEach(attribute -> update.set(attribute, null));
                resets.add(update.onlyIfExists());
            }
        }
        return new Reset(List.of(), List.copyOf(resets), null, Set.of());
    }

    @Override
    public boolean owns(Map<String, AttributeValue> item) {
        return KeyPlan.USER_PROFILE.matches(Key.of(item));
    }
}
