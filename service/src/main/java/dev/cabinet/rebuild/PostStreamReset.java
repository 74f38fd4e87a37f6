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
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Values;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items of the table a post's stream owns, and so what a rebuild of that one stream resets before its events are
 * applied again (pure: the items found in, the reset out). The post stream ({@link KeyPlan#POST_STREAM}, the record key
 * of {@code cabinet.posts} being the post id) owns, in its partition {@code POST#{postId}}: the metadata (its root), the
 * tombstone and the comments, which are deleted; and on the counter shards only {@code commentCount} and the stream's
 * version, which are removed: {@code likeCount} and its pending tokens belong to the like streams and stay. Outside its
 * partition it owns the author's post summary ({@code USER#{authorId} / POST#{createdAt}#{postId}}), deleted too. The
 * author's {@code postCount} is the user's item: the stream only counts on it, exactly once per event, so it is not
 * reset; instead the ids of the events that count on it (the creation, and the deletions) are made pending on it while
 * the events are applied again, so that their counts, made already, are not made twice (as for a redelivered event
 * whose count was made). A deletion need not be the stream's last event: a comment or a second deletion accepted from
 * a lagging read model comes after it in the log, rejected.
 */
final class PostStreamReset implements StreamReset {

    @Override
    public String topic() {
        return Topics.POSTS;
    }

    @Override
    public AggregateStream stream() {
        return KeyPlan.POST_STREAM;
    }

    @Override
    public Optional<String> notAStream(String key, List<RecordedEvent> events) {
        return isPostStream(key, events) ? Optional.empty()
                : Optional.of("not a post's (a user's likes are keyed by the user, each like a stream of its own)");
    }

    @Override
    public Reset reset(String postId, List<Map<String, AttributeValue>> partition, List<RecordedEvent> events) {
        return of(postId, partition, creation(postId, events), deletions(postId, events));
    }

    /** The post, its tombstone and comments; a counter shard only once the post stream has counted on it. */
    @Override
    public boolean owns(Map<String, AttributeValue> item) {
        Key key = Key.of(item);
        return KeyPlan.POST_COUNTER.matches(key) ? item.containsKey(KeyPlan.POST_STREAM.versionAttribute())
                : KeyPlan.POST.matches(key) || KeyPlan.POST_TOMBSTONE.matches(key) || KeyPlan.COMMENT.matches(key);
    }

    /**
     * The reset of post {@code postId}, from every item of its partition as found and its creation event (the first
     * event of the key whose data names the post's author; null if the log has none, then no summary or count is
     * touched); {@code deletions} are the ids of the stream's deletions.
     */
    static Reset of(String postId, List<Map<String, AttributeValue>> partition, RecordedEvent creation,
            List<String> deletions) {
        List<Key> deletes = new ArrayList<>();
        List<ItemUpdate> resets = new ArrayList<>();
        for (Map<String, AttributeValue> item : partition) {
            Key key = Key.of(item);
            if (!key.pk().equals(KeyPlan.POST.partition(postId))) {
                continue;
            }
            if (KeyPlan.POST.matches(key) || KeyPlan.POST_TOMBSTONE.matches(key) || KeyPlan.COMMENT.matches(key)) {
                deletes.add(key);
            } else if (KeyPlan.POST_COUNTER.matches(key)) {
                // The shard stays (its likeCount is the like streams'); the comments' count is the post stream's.
                resets.add(ItemUpdate.of(key)
                        .set(Attributes.COMMENT_COUNT, null)
                        .set(KeyPlan.POST_STREAM.versionAttribute(), null)
                        .onlyIfExists());
            }
        }
        Key counter = null;
        Set<String> tokens = new LinkedHashSet<>();
        String authorId = creation == null ? null : creation.field(Attributes.AUTHOR_ID);
        String createdAt = creation == null ? null : creation.field(Attributes.CREATED_AT);
        if (authorId != null && createdAt != null) {
            deletes.add(KeyPlan.USER_POST.keyFrom(Values.of(Attributes.USER_ID, authorId,
                    Attributes.CREATED_AT, createdAt, Attributes.POST_ID, postId)));
            counter = KeyPlan.USER_PROFILE.key(authorId);
            if (creation.id() != null) {
                tokens.add(creation.id());
            }
            tokens.addAll(deletions);
        }
        return new Reset(List.copyOf(deletes), List.copyOf(resets), counter, Set.copyOf(tokens));
    }

    /**
     * The post's creation among the key's events: the first whose data names the post, its author, its creation time
     * and a title (a comment names its own author and time, but no title).
     */
    static RecordedEvent creation(String postId, List<RecordedEvent> events) {
        return events.stream()
                .filter(event -> postId.equals(event.field(Attributes.POST_ID))
                        && event.field(Attributes.AUTHOR_ID) != null && event.field(Attributes.CREATED_AT) != null
                        && event.has(Attributes.TITLE) && event.field(Attributes.COMMENT_ID) == null)
                .findFirst().orElse(null);
    }

    /**
     * The ids of the post's deletions among the key's events, each of which counts on the author's {@code postCount}
     * when applied: the events whose data names the post and a deletion time, but no comment (a comment's deletion
     * counts on the post's own shards).
     */
    static List<String> deletions(String postId, List<RecordedEvent> events) {
        return events.stream()
                .filter(event -> postId.equals(event.field(Attributes.POST_ID)) && event.id() != null
                        && event.field(Attributes.DELETED_AT) != null && event.field(Attributes.COMMENT_ID) == null)
                .map(RecordedEvent::id).toList();
    }

    /**
     * Whether the key's events are a post's stream: every readable one names the key as its post (a like's key is its
     * user, so a user's likes are not). Unreadable records are left to the projector, which says why.
     */
    static boolean isPostStream(String key, List<RecordedEvent> events) {
        return StreamReset.nameTheKey(key, events, Attributes.POST_ID);
    }
}
