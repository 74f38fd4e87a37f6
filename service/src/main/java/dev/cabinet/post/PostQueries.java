package dev.cabinet.post;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.ETags;
import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.CountersConfig;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The post reads, one method per access pattern. */
@ApplicationScoped
public class PostQueries {

    private final TableReader table;
    private final FeedConfig feed;
    private final int counterShards;

    PostQueries(TableReader table, FeedConfig feed, CountersConfig counters) {
        this.table = table;
        this.feed = feed;
        this.counterShards = counters.shards();
    }

    /**
     * The post with its likeCount and commentCount in one Query: the metadata and its counter shards (summed),
     * pattern 3 alone.
     */
    public Uni<Optional<PostView>> findPost(String postId) {
        String metadata = KeyPlan.POST.key(postId).sk();
        PageRequest metadataAndShards = new PageRequest(counterShards + 1, null);
        return table.query(KeyPlan.POST_WITH_COUNTS.query(postId), metadataAndShards).map(page -> {
            if (page.items().isEmpty() || !metadata.equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            return Optional.of(PostView.of(page.items().get(0)).withCounts(page.items()));
        });
    }

    /** Pattern 2: the user's post summaries, newest first. */
    public Uni<Page<PostSummaryView>> listPostsOfUser(String userId, PageRequest page) {
        return table.query(KeyPlan.USER_POSTS.query(userId), page).map(result -> result.map(PostSummaryView::of));
    }

    /**
     * Pattern 3: the post, its counter shards and its newest comments in ONE Query. Its sort-key range covers the
     * metadata, the shards ({@code COUNT#} sorts between them) and the comments (the tombstone of a deleted post sorts
     * after it); read newest first, the metadata comes first, then the shards. The Query asks for room for every shard;
     * when fewer exist, the comments beyond the limit are dropped and {@code next} continues after the last one shown,
     * newest first, on {@code GET /posts/{id}/comments?order=desc}.
     */
    public Uni<Optional<PostView>> findPostWithComments(String postId, int commentLimit) {
        String metadata = KeyPlan.POST.key(postId).sk();
        KeyQuery continuation = KeyPlan.POST_COMMENTS.inOrder(true, postId);
        return table.query(KeyPlan.POST_WITH_COMMENTS.query(postId), new PageRequest(commentLimit + 1 + counterShards,
                null), continuation).map(page -> {
            if (page.items().isEmpty() || !metadata.equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            List<Map<String, AttributeValue>> rest = page.items().subList(1, page.items().size());
            List<Map<String, AttributeValue>> comments = rest.stream().filter(item -> !PostCounters.isCounter(item))
                    .toList();
            String next = page.next();
            if (comments.size() > commentLimit) {
                comments = comments.subList(0, commentLimit);
                next = table.cursorAfter(continuation, comments.get(commentLimit - 1));
            }
            List<Map<String, AttributeValue>> shown = new ArrayList<>();
            shown.add(page.items().get(0));
            shown.addAll(comments);
            return Optional.of(PostView.of(page.items().get(0)).withCounts(rest)
                    .withComments(new Page<>(comments.stream().map(CommentView::of).toList(), next), ETags.of(shown)));
        });
    }

    /** Pattern 4: the post's comments, oldest or newest first. */
    public Uni<Page<CommentView>> listComments(String postId, boolean newestFirst, PageRequest page) {
        return table.query(KeyPlan.POST_COMMENTS.inOrder(newestFirst, postId), page)
                .map(result -> result.map(CommentView::of));
    }

    /**
     * Pattern 5: the published feed, newest first, from every GSI1 shard in parallel, merged; then the page's counter
     * shards (likeCount and commentCount) in one batched read (BatchGetItem, 100 keys a call, all calls at once).
     */
    public Uni<Page<PostView>> listPublished(PageRequest page) {
        return table.queryMerged(KeyPlan.PUBLISHED_POSTS.shards(feed.shards()), page)
                .map(result -> result.map(PostView::of)).chain(posts -> {
            List<Key> keys = posts.items().stream()
                    .flatMap(post -> PostCounters.counters(post.id(), counterShards).stream()).toList();
            return table.getAll(keys).map(counters -> {
                // A post's counter shards all share its partition key.
                Map<String, List<Map<String, AttributeValue>>> byPost = counters.stream()
                        .collect(Collectors.groupingBy(counter -> Items.string(counter, Key.PK)));
                return posts.map(post -> post.withCounts(byPost.getOrDefault(KeyPlan.POST.partition(post.id()),
                        List.of())));
            });
        });
    }

    /** Pattern 6: the user's comments through GSI2, newest first. */
    public Uni<Page<CommentView>> listCommentsOfUser(String userId, PageRequest page) {
        return table.query(KeyPlan.USER_COMMENTS.query(userId), page).map(result -> result.map(CommentView::of));
    }

    /** Pattern 17: a comment found from its id alone, through GSI1. */
    public Uni<Optional<CommentView>> findComment(String commentId) {
        return table.query(KeyPlan.COMMENT_BY_ID.query(commentId), new PageRequest(1, null))
                .map(page -> page.items().stream().findFirst().map(CommentView::of));
    }

    /** PATCH and DELETE /posts/{id} and its publish honour If-Match against the post's metadata item. */
    @Produces
    @Singleton
    static TaggedResource postTags() {
        return TaggedPath.of("/posts/", KeyPlan.POST::key, "publish");
    }
}
