package dev.cabinet.post;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.OrphanCheck;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import dev.cabinet.table.Values;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what post events do: the post's metadata is the stream's root; the author's post summary (pattern 2), the
 * author's postCount (counted once) and, once published, the sharded feed entry (GSI1) follow. The author's name is
 * copied onto the post and given its second look. Deleting a post leaves a tombstone and removes its whole item
 * collection, the summary and the count.
 */
@ApplicationScoped
public class PostProjector implements Projector<PostEvent> {

    /** Set on the summary item once it has been counted in the author's postCount. */
    static final String COUNTED = "countedInPostCount";
    /** Set on the summary item once its post's deletion has been taken off the author's postCount. */
    static final String UNCOUNTED = "uncountedFromPostCount";

    private final int shards;

    @Inject
    PostProjector(FeedConfig feed) {
        this(feed.shards());
    }

    PostProjector(int shards) {
        this.shards = shards;
    }

    @Override
    public List<EventType<? extends PostEvent>> eventTypes() {
        return List.of(PostEvent.CREATED, PostEvent.EDITED, PostEvent.PUBLISHED, PostEvent.DELETED);
    }

    @Override
    public StreamTarget target(PostEvent event) {
        return event instanceof PostCreated ? StreamTarget.creating(KeyPlan.POST_STREAM, event.postId())
                : StreamTarget.of(KeyPlan.POST_STREAM, event.postId());
    }

    @Override
    public List<Key> needs(PostEvent event) {
        return event instanceof PostCreated created ? List.of(KeyPlan.USER_PROFILE.key(created.authorId())) : List.of();
    }

    @Override
    public WritePlan decide(PostEvent event, Reads reads) {
        if (event instanceof PostCreated created) {
            return created(created, reads.item(KeyPlan.USER_PROFILE.key(created.authorId())));
        }
        Map<String, AttributeValue> post = reads.existingRoot();
        if (event instanceof PostEdited edited) {
            return edited(edited, post);
        }
        if (event instanceof PostPublished published) {
            return published(published, post);
        }
        return deleted((PostDeleted) event, post);
    }

    /** The post, with its author's name as read; the summary, counted on the author's profile; the name's second look. */
    private static WritePlan created(PostCreated e, Optional<Map<String, AttributeValue>> author) {
        Key profile = KeyPlan.USER_PROFILE.key(e.authorId());
        ItemUpdate post = KeyPlan.POST_AUTHOR_NAME.copyOnto(KeyPlan.POST.write(Values.of(
                Attributes.POST_ID, e.postId(),
                Attributes.AUTHOR_ID, e.authorId(),
                Attributes.TITLE, e.title(),
                Attributes.BODY, e.body(),
                Attributes.STATUS, PostStatus.DRAFT,
                Attributes.CREATED_AT, e.createdAt())), author);
        ItemUpdate summary = KeyPlan.USER_POST.write(Values.of(
                Attributes.USER_ID, e.authorId(),
                Attributes.CREATED_AT, e.createdAt(),
                Attributes.POST_ID, e.postId(),
                Attributes.TITLE, e.title()))
                .setIfAbsent(Attributes.STATUS, PostStatus.DRAFT);
        KeyPlan.POST_SUMMARY_TITLE.copyOnto(summary, author);
        return WritePlan.onRoot(post)
                .write(summary)
                .then(new Count(profile, KeyPlan.USER_PROFILE, Attributes.POST_COUNT, 1, summary.key(), COUNTED))
                .then(new CopyCheck(profile, KeyPlan.POST_AUTHOR_NAME.versionOf(author),
                        List.of(post.key(), summary.key())));
    }

    /**
     * The new text on the post and its summary, each with the version of its author's profile the post copied last
     * ({@code profileVersion}, as read), and the second look at that profile after them. Should the author's erasure
     * walk past both between this read and these writes (an edit opened with a key cached before the erasure), the
     * writes put back the text the walk replaced, and the version it moved: the look then finds the profile newer and
     * replaces the text again, as the walk would have.
     */
    private static WritePlan edited(PostEdited e, Map<String, AttributeValue> post) {
        if (Items.has(post, Attributes.SUBJECT_ERASED_AT)) {
            // Its author was erased (their edit was accepted before that was known): the placeholders stay.
            return WritePlan.onRoot();
        }
        long copied = Items.has(post, Attributes.PROFILE_VERSION) ? Items.number(post, Attributes.PROFILE_VERSION) : -1;
        ItemUpdate root = KeyPlan.POST.write(Values.of(
                Attributes.POST_ID, e.postId(),
                Attributes.TITLE, e.title(),
                Attributes.BODY, e.body()))
                .set(Attributes.PROFILE_VERSION, copied);
        WritePlan plan = WritePlan.onRoot(root);
        List<Key> holders = new ArrayList<>(List.of(root.key()));
        if (e.title() != null) {
            ItemUpdate summary = KeyPlan.USER_POST.write(summary(post, Attributes.TITLE, e.title()))
                    .set(Attributes.PROFILE_VERSION, copied).onlyIfExists();
            plan.write(summary);
            holders.add(summary.key());
        }
        return plan.then(new CopyCheck(KeyPlan.USER_PROFILE.key(Items.string(post, Attributes.AUTHOR_ID)), copied,
                holders));
    }

    private WritePlan published(PostPublished e, Map<String, AttributeValue> post) {
        if (Items.has(post, Attributes.PUBLISHED_AT)) {
            return WritePlan.reject("post " + e.postId() + " is already published");
        }
        return WritePlan.onRoot(KeyPlan.POST.write(Values.of(
                Attributes.POST_ID, e.postId(),
                Attributes.STATUS, PostStatus.PUBLISHED,
                Attributes.PUBLISHED_AT, e.publishedAt(),
                Attributes.SHARD, Shards.of(e.postId(), shards))))
                .write(KeyPlan.USER_POST.write(summary(post, Attributes.STATUS, PostStatus.PUBLISHED)).onlyIfExists());
    }

    /**
     * The tombstone is the deletion's record; then every item the key plan says goes with the post (its comments,
     * likes, counter shards, whatever declares so: {@link KeyPlan#deletedWith}), the author's count (while the summary,
     * its marker, is still there) and the summary go; the executor deletes the metadata with the first of these
     * (Rounds#deletesRootEarly).
     */
    private static WritePlan deleted(PostDeleted e, Map<String, AttributeValue> post) {
        Key summary = KeyPlan.USER_POST.keyFrom(summary(post));
        WritePlan plan = WritePlan.deleting(KeyPlan.POST_TOMBSTONE.write(Values.of(
                Attributes.POST_ID, e.postId(),
                Attributes.DELETED_AT, e.deletedAt())));
        // After the tombstone: an item of another stream applied meanwhile (a like) either is found by these or
        // finds the tombstone in its second look (its OrphanCheck, goneWithPost) and deletes itself.
        for (ItemType owned : KeyPlan.deletedWith(KeyPlan.POST)) {
            plan.then(new DeleteCollection(owned.collectionUnder(Values.of(Attributes.POST_ID, e.postId()))));
        }
        return plan.then(new Count(KeyPlan.USER_PROFILE.key(Items.string(post, Attributes.AUTHOR_ID)), KeyPlan.USER_PROFILE,
                        Attributes.POST_COUNT, -1, summary, UNCOUNTED))
                .delete(summary);
    }

    /**
     * The second look an item written under a post from another stream needs (a like, its counter shard):
     * when the batch ends, the post's tombstone is read, and if the post was deleted meanwhile (its deletion may have
     * deleted what it owns before these writes) the items go. Either that deletion finds them or this look finds it.
     */
    static OrphanCheck goneWithPost(String postId, List<Key> items) {
        return new OrphanCheck(KeyPlan.POST_TOMBSTONE.key(postId), items);
    }

    /** The values naming the post's summary (and what else it is to hold), from the post's metadata. */
    private static Map<String, Object> summary(Map<String, AttributeValue> post, Object... more) {
        Map<String, Object> values = Values.of(
                Attributes.USER_ID, Items.string(post, Attributes.AUTHOR_ID),
                Attributes.CREATED_AT, Items.string(post, Attributes.CREATED_AT),
                Attributes.POST_ID, Items.string(post, Attributes.POST_ID));
        values.putAll(Values.of(more));
        return values;
    }
}
