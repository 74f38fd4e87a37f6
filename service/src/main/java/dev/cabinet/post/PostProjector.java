package dev.cabinet.post;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.projection.CounterChange;
import dev.cabinet.projection.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.query.Items;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserKeys;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Projects post events onto the post's metadata item, the author's post summary (pattern 2), the author's postCount
 * and, once published, the sharded feed entry (GSI1). Every write is guarded by the post stream's version.
 */
@ApplicationScoped
public class PostProjector implements Projector {

    private static final Logger LOG = Logger.getLogger(PostProjector.class);

    /** The version of the post stream an item has applied. */
    static final String VERSION = "postVersion";
    /** Set on the summary item once it has been counted in the author's postCount. */
    static final String COUNTED = "countedInPostCount";

    private final ProjectionStore store;
    private final FeedConfig feed;

    PostProjector(ProjectionStore store, FeedConfig feed) {
        this.store = store;
        this.feed = feed;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(PostEvent.CREATED, PostEvent.EDITED, PostEvent.PUBLISHED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        if (event.data() instanceof PostCreated) {
            return created((PostCreated) event.data(), event);
        }
        if (event.data() instanceof PostEdited) {
            return withPost(event, post -> edited((PostEdited) event.data(), post, event.version()));
        }
        return withPost(event, post -> published((PostPublished) event.data(), post, event.version()));
    }

    private Uni<Void> created(PostCreated e, ReceivedEvent event) {
        // The author's name is copied onto the post so that reading a post needs no second read.
        Uni<Optional<Map<String, AttributeValue>>> author = store.read(UserKeys.profile(e.authorId()));
        return author.chain(profile -> {
            ItemUpdate metadata = ItemUpdate.of(PostKeys.metadata(e.postId()), KeyPlan.POST.name())
                    .set("postId", e.postId())
                    .set("authorId", e.authorId())
                    .set("authorName", profile.map(p -> Items.string(p, "name")).orElse(null))
                    .set("title", e.title())
                    .set("body", e.body())
                    .setIfAbsent("status", PostStatus.DRAFT)
                    .set("createdAt", e.createdAt())
                    .setIfAbsent("commentCount", 0)
                    .guardedBy(VERSION, event.version());
            ItemUpdate summary = ItemUpdate.of(PostKeys.summary(e.authorId(), e.createdAt(), e.postId()),
                    KeyPlan.USER_POST.name())
                    .set("postId", e.postId())
                    .set("title", e.title())
                    .setIfAbsent("status", PostStatus.DRAFT)
                    .set("createdAt", e.createdAt())
                    .guardedBy(VERSION, event.version());
            CounterChange count = new CounterChange(UserKeys.profile(e.authorId()), KeyPlan.USER_PROFILE.name(),
                    "postCount", 1, summary.key(), COUNTED, event.id());
            return Uni.combine().all().unis(store.update(metadata), store.update(summary).chain(() -> store.countOnce(count)))
                    .discardItems();
        });
    }

    private Uni<Void> edited(PostEdited e, Map<String, AttributeValue> post, long version) {
        ItemUpdate metadata = ItemUpdate.of(PostKeys.metadata(e.postId())).onlyIfExists().guardedBy(VERSION, version);
        ItemUpdate summary = ItemUpdate.of(summaryKey(post)).onlyIfExists().guardedBy(VERSION, version);
        if (e.title() != null) {
            metadata.set("title", e.title());
            summary.set("title", e.title());
        }
        if (e.body() != null) {
            metadata.set("body", e.body());
        }
        return Uni.combine().all().unis(store.update(metadata), store.update(summary)).discardItems();
    }

    private Uni<Void> published(PostPublished e, Map<String, AttributeValue> post, long version) {
        ItemUpdate metadata = ItemUpdate.of(PostKeys.metadata(e.postId()))
                .set("status", PostStatus.PUBLISHED)
                .set("publishedAt", e.publishedAt())
                .set(Index.GSI1.pkAttribute(), PostKeys.feedPartition(PostKeys.feedShard(e.postId(), feed.shards())))
                .set(Index.GSI1.skAttribute(), PostKeys.feedSortKey(e.publishedAt(), e.postId()))
                .onlyIfExists()
                .onlyIfLacks("publishedAt")
                .guardedBy(VERSION, version);
        ItemUpdate summary = ItemUpdate.of(summaryKey(post)).set("status", PostStatus.PUBLISHED).onlyIfExists()
                .guardedBy(VERSION, version);
        return Uni.combine().all().unis(store.update(metadata), store.update(summary)).discardItems();
    }

    /** Applies an event that needs the post's metadata (for its author and creation time); skips it if there is none. */
    private Uni<Void> withPost(ReceivedEvent event, Function<Map<String, AttributeValue>, Uni<Void>> then) {
        String postId = ((PostEvent) event.data()).postId();
        return store.read(PostKeys.metadata(postId)).chain(post -> {
            if (post.isEmpty()) {
                LOG.warnf("Skipping %s %s: post %s does not exist", event.type(), event.id(), postId);
                return Uni.createFrom().voidItem();
            }
            return then.apply(post.get());
        });
    }

    private static Key summaryKey(Map<String, AttributeValue> post) {
        return PostKeys.summary(Items.string(post, "authorId"), Items.string(post, "createdAt"), Items.string(post, "postId"));
    }
}
