package dev.cabinet.post;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.projection.CounterChange;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.Rejections;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.ProfileCopy;
import dev.cabinet.user.Profiles;
import dev.cabinet.user.UserKeys;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Projects post events onto the post's metadata (the stream's root, written first), the author's post summary
 * (pattern 2), the author's postCount and, once published, the sharded feed entry (GSI1). Deleting a post removes its
 * whole item collection and leaves a tombstone.
 */
@ApplicationScoped
public class PostProjector implements LegacyProjector {

    /** Set on the summary item once it has been counted in the author's postCount. */
    static final String COUNTED = "countedInPostCount";
    /** Set on the summary item once its post's deletion has been taken off the author's postCount. */
    static final String UNCOUNTED = "uncountedFromPostCount";

    private final ProjectionStore store;
    private final PostStream stream;
    private final Profiles profiles;
    private final Rejections rejections;
    private final FeedConfig feed;

    PostProjector(ProjectionStore store, PostStream stream, Profiles profiles, Rejections rejections, FeedConfig feed) {
        this.store = store;
        this.stream = stream;
        this.profiles = profiles;
        this.rejections = rejections;
        this.feed = feed;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(PostEvent.CREATED, PostEvent.EDITED, PostEvent.PUBLISHED, PostEvent.DELETED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        if (event.data() instanceof PostCreated created) {
            return stream.create(event, created.postId(), profiles.current(created.authorId()),
                    (post, progress, author) -> created(created, event, progress, author));
        }
        PostEvent data = (PostEvent) event.data();
        return stream.apply(event, data.postId(), (post, progress) -> {
            if (data instanceof PostEdited edited) {
                return edited(edited, post, event.version());
            }
            if (data instanceof PostPublished published) {
                return published(published, post, progress, event);
            }
            return deleted((PostDeleted) data, post, event);
        });
    }

    private Uni<Void> created(PostCreated e, ReceivedEvent event, Progress progress, ProfileCopy author) {
        long version = event.version();
        ItemUpdate summary = ItemUpdate.of(PostKeys.summary(e.authorId(), e.createdAt(), e.postId()),
                KeyPlan.USER_POST.name())
                .set("postId", e.postId())
                .set("title", e.title())
                .setIfAbsent("status", PostStatus.DRAFT)
                .set("createdAt", e.createdAt())
                .guardedBy(PostKeys.VERSION, version);
        CounterChange count = new CounterChange(UserKeys.profile(e.authorId()), KeyPlan.USER_PROFILE.name(),
                "postCount", 1, summary.key(), COUNTED, event.id());
        // The author's name is copied onto the post so that reading a post needs no second read. Counting the post
        // writes the author's profile last and answers it as it is then: that is the copy's second look.
        return profiles.writeCopies(author, profile -> {
            Uni<Boolean> root = progress == Progress.NEW
                    ? store.update(profile.writeName(ItemUpdate.of(PostKeys.metadata(e.postId()), KeyPlan.POST.name())
                            .set("postId", e.postId())
                            .set("authorId", e.authorId())
                            .set("title", e.title())
                            .set("body", e.body())
                            .set("status", PostStatus.DRAFT)
                            .set("createdAt", e.createdAt())
                            .set("commentCount", 0)
                            .guardedBy(PostKeys.VERSION, version), "authorName"))
                    : Uni.createFrom().item(true);
            return root.chain(() -> store.updateAndGet(summary))
                    .chain(summaryNow -> summaryNow.isPresent() ? store.countOnce(count, summaryNow)
                            : store.countOnce(count));
        }, profile -> PostAuthorCopies.refresh(store, profile, e.postId()));
    }

    private Uni<Void> edited(PostEdited e, Map<String, AttributeValue> post, long version) {
        ItemUpdate metadata = ItemUpdate.of(PostKeys.metadata(e.postId())).onlyIfExists().guardedBy(PostKeys.VERSION, version);
        ItemUpdate summary = ItemUpdate.of(summaryKey(post)).onlyIfExists().guardedBy(PostKeys.VERSION, version);
        if (e.title() != null) {
            metadata.set("title", e.title());
            summary.set("title", e.title());
        }
        if (e.body() != null) {
            metadata.set("body", e.body());
        }
        return store.update(metadata).chain(() -> store.update(summary)).replaceWithVoid();
    }

    private Uni<Void> published(PostPublished e, Map<String, AttributeValue> post, Progress progress, ReceivedEvent event) {
        if (progress == Progress.NEW && Items.has(post, "publishedAt")) {
            return rejections.reject(event, "post " + e.postId() + " is already published");
        }
        long version = event.version();
        ItemUpdate metadata = ItemUpdate.of(PostKeys.metadata(e.postId()))
                .set("status", PostStatus.PUBLISHED)
                .set("publishedAt", e.publishedAt())
                .set(Index.GSI1.pkAttribute(), PostKeys.feedPartition(PostKeys.feedShard(e.postId(), feed.shards())))
                .set(Index.GSI1.skAttribute(), PostKeys.feedSortKey(e.publishedAt(), e.postId()))
                .onlyIfExists()
                .guardedBy(PostKeys.VERSION, version);
        ItemUpdate summary = ItemUpdate.of(summaryKey(post)).set("status", PostStatus.PUBLISHED).onlyIfExists()
                .guardedBy(PostKeys.VERSION, version);
        return store.update(metadata).chain(() -> store.update(summary)).replaceWithVoid();
    }

    /**
     * The tombstone first (it marks the deletion as decided), then the comments, the likes, the summary and the
     * author's count, and the metadata last: until it is gone a redelivery finds the post and finishes the job.
     */
    private Uni<Void> deleted(PostDeleted e, Map<String, AttributeValue> post, ReceivedEvent event) {
        long version = event.version();
        Key summary = summaryKey(post);
        ItemUpdate tombstone = ItemUpdate.of(PostKeys.tombstone(e.postId()), KeyPlan.POST_TOMBSTONE.name())
                .set("postId", e.postId())
                .set("deletedAt", e.deletedAt())
                .guardedBy(PostKeys.VERSION, version);
        CounterChange uncount = new CounterChange(UserKeys.profile(Items.string(post, "authorId")),
                KeyPlan.USER_PROFILE.name(), "postCount", -1, summary, UNCOUNTED, event.id());
        KeyQuery comments = KeyQuery.of(Index.TABLE, PostKeys.partition(e.postId()),
                SortKeyCondition.beginsWith(KeyPlan.COMMENT.sk().prefix()), false);
        return store.update(tombstone)
                .chain(() -> store.deleteAll(comments))
                // Its likes and likeCount shards after the tombstone: a like applied meanwhile either is found here or
                // finds the tombstone in its second look (LikeProjector's OrphanCheck) and deletes itself.
                .chain(() -> Uni.join().all(LikeProjector.deletedWithPost(e.postId()).stream()
                        .map(store::deleteAll).toList()).andFailFast())
                .chain(() -> store.countOnce(uncount))
                .chain(() -> store.delete(summary, PostKeys.VERSION, version))
                .chain(() -> store.delete(PostKeys.metadata(e.postId()), PostKeys.VERSION, version))
                .replaceWithVoid();
    }

    private static Key summaryKey(Map<String, AttributeValue> post) {
        return PostKeys.summary(Items.string(post, "authorId"), Items.string(post, "createdAt"), Items.string(post, "postId"));
    }
}
