package dev.cabinet.post;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import dev.cabinet.table.CountersConfig;

/**
 * Likes as pure decisions. Each (post, user) like is its own stream whose root is the like item, so a post's likes are
 * applied concurrently; the post's likeCount is a sharded counter (on the {@code COUNT#{shard}} items under the post,
 * the shard from the user's id), each like or unlike counted exactly once on its shard: 2,000 likes at once spread over
 * the shards rather than queueing on one item. A like and an unlike each clear the other's "counted" flag in their root
 * write, which happens once per event, so a like, unlike, like again counts +1, -1, +1.
 */
@ApplicationScoped
public class LikeProjector implements Projector<LikeEvent> {

    private final int shards;

    @Inject
    LikeProjector(CountersConfig counters) {
        this(counters.shards());
    }

    LikeProjector(int shards) {
        this.shards = shards;
    }

    @Override
    public List<EventType<? extends LikeEvent>> eventTypes() {
        return List.of(LikeEvent.LIKED, LikeEvent.UNLIKED);
    }

    /**
     * A first like creates the like's item, a later one finds it. An unlike finds it too, unless its post's deletion
     * took it first (live, the unlike then came after the deletion; a replay may bring it before), or the user never
     * liked the post (the API appends an unlike whatever its read showed): it is not refused then, so that a replay and
     * the live projector end alike, with no rejection; the item it leaves says not liked (no list entry, no count).
     */
    @Override
    public StreamTarget target(LikeEvent event) {
        return StreamTarget.upserting(KeyPlan.LIKE_STREAM, event.postId(), event.userId());
    }

    /**
     * A like reads nothing but its own item: not its post, nor the post's tombstone. A replay of the log (a rebuild)
     * reads the partitions side by side, so it can bring a like (keyed by its user) before its post's creation (keyed
     * by the post), or after its post's deletion although the live projector applied it before; refused then, it would
     * be lost to the rebuilt table, or leave a rejection the live table does not have. Applied, it ends as it did live:
     * counted once the post exists, or taken by its orphan check, which finds the deleted post's tombstone. The API
     * appends a like only for a post it finds.
     */
    @Override
    public List<Key> needs(LikeEvent event) {
        return List.of();
    }

    @Override
    public WritePlan decide(LikeEvent event, Reads reads) {
        boolean liked = reads.root().map(like -> Items.isTrue(like, Attributes.LIKED)).orElse(false);
        if (event instanceof PostLiked like) {
            if (liked) {
                // Liked twice (the API appends a repeat): nothing changes, but the recording write may make the item again
                // should the post's deletion have taken it since it was read, and every such write looks again.
                return WritePlan.onRoot().then(PostProjector.goneWithPost(like.postId(),
                        List.of(KeyPlan.LIKE.key(like.postId(), like.userId()))));
            }
            ItemUpdate root = KeyPlan.LIKE.write(Map.of(Attributes.POST_ID, like.postId(),
                    Attributes.USER_ID, like.userId(), Attributes.LIKED, true, Attributes.CREATED_AT, like.likedAt()))
                    .set(Attributes.UNLIKE_COUNTED, null);
            return counted(WritePlan.onRoot(root), like, +1, Attributes.LIKE_COUNTED);
        }
        if (reads.root().isEmpty()) {
            // Its like went with its post: the unlike is recorded on an item that says so, which the orphan check takes.
            Key gone = KeyPlan.LIKE.key(event.postId(), event.userId());
            return WritePlan.onRoot(ItemUpdate.of(gone, KeyPlan.LIKE.name()).set(Attributes.POST_ID, event.postId())
                    .set(Attributes.USER_ID, event.userId()).set(Attributes.LIKED, false))
                    .then(PostProjector.goneWithPost(event.postId(), List.of(gone)));
        }
        if (!liked) {
            return WritePlan.onRoot().then(PostProjector.goneWithPost(event.postId(),   // unliked twice
                    List.of(KeyPlan.LIKE.key(event.postId(), event.userId()))));
        }
        ItemUpdate root = ItemUpdate.of(KeyPlan.LIKE.key(event.postId(), event.userId()))
                .set(Attributes.LIKED, false)
                .set(Index.GSI2.pkAttribute(), null)    // out of the user's likes (the sparse index)
                .set(Index.GSI2.skAttribute(), null)
                .set(Attributes.LIKE_COUNTED, null);
        return counted(WritePlan.onRoot(root), event, -1, Attributes.UNLIKE_COUNTED);
    }

    /**
     * The count on the user's shard (a Count step: a post's likes come from many streams, one per like, so no one
     * stream's version can guard the counter), and the second look a write under another aggregate needs: if the post was deleted
     * meanwhile (its deletion may have deleted its likes and shards before these writes), this like and the shard go.
     */
    private WritePlan counted(WritePlan plan, LikeEvent event, long delta, String flag) {
        Key like = KeyPlan.LIKE.key(event.postId(), event.userId());
        Key counter = PostCounters.counter(event.postId(), Shards.of(event.userId(), shards));
        return plan.then(new Count(counter, KeyPlan.POST_COUNTER, Attributes.LIKE_COUNT, delta, like, flag))
                .then(PostProjector.goneWithPost(event.postId(), List.of(like, counter)));
    }
}
