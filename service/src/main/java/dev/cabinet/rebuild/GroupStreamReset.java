package dev.cabinet.rebuild;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.AggregateStream;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items a group's stream owns (pure): the record key of {@code cabinet.groups} is the group id, and the stream
 * owns its whole partition {@code GROUP#{groupId}}: the metadata (its root, with {@code adminCount}), the
 * {@code memberCount} shards and the group side of each membership (with the member's name copied from the profile);
 * and, outside it, the user side of each membership ({@code USER#{userId} / GROUP#{groupId}}, the group's name copied),
 * for every user its events name (the creator, each member who joined, left or changed role). All are deleted. Both
 * counts are on the group's own items and only its stream changes them, guarded by its version, so deleting them and
 * counting again from the events is exact; the group counts on no other aggregate's item (a profile has no count of
 * groups), so no count needs holding. The profiles the member names are copied from are read, never written.
 */
final class GroupStreamReset implements StreamReset {

    /** The creator's id in a group's creation event (the published event contract). */
    static final String CREATOR_ID = "creatorId";

    @Override
    public String topic() {
        return Topics.GROUPS;
    }

    @Override
    public AggregateStream stream() {
        return KeyPlan.GROUP_STREAM;
    }

    @Override
    public Optional<String> notAStream(String key, List<RecordedEvent> events) {
        return StreamReset.nameTheKey(key, events, Attributes.GROUP_ID) ? Optional.empty()
                : Optional.of("not a group's (they do not name " + key + " as their group)");
    }

    @Override
    public Reset reset(String groupId, List<Map<String, AttributeValue>> partition, List<RecordedEvent> events) {
        String pk = partition(groupId);
        List<Key> deletes = new ArrayList<>(partition.stream().map(Key::of)
                .filter(key -> key.pk().equals(pk) && isGroupItem(key)).toList());
        for (String userId : members(events)) {
            deletes.add(KeyPlan.USER_GROUP.key(userId, groupId));
        }
        return Reset.deleting(deletes);
    }

    @Override
    public boolean owns(Map<String, AttributeValue> item) {
        return isGroupItem(Key.of(item));
    }

    /** Every user the events name, in log order: whoever has or had a membership. */
    static Set<String> members(List<RecordedEvent> events) {
        Set<String> users = new LinkedHashSet<>();
        for (RecordedEvent event : events) {
            for (String attribute : List.of(CREATOR_ID, Attributes.USER_ID)) {
                String userId = event.field(attribute);
                if (userId != null) {
                    users.add(userId);
                }
            }
        }
        return users;
    }

    private static boolean isGroupItem(Key key) {
        return KeyPlan.GROUP.matches(key) || KeyPlan.GROUP_COUNTER.matches(key) || KeyPlan.GROUP_MEMBER.matches(key);
    }
}
