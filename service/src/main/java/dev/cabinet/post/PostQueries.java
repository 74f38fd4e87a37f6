package dev.cabinet.post;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Index;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import io.smallrye.mutiny.Uni;

/** The post reads, one method per access pattern. */
@ApplicationScoped
public class PostQueries {

    private final TableReader table;
    private final FeedConfig feed;
    private final int likeShards;

    PostQueries(TableReader table, FeedConfig feed,
            @ConfigProperty(name = LikeProjector.SHARDS, defaultValue = LikeProjector.DEFAULT_SHARDS) int likeShards) {
        this.table = table;
        this.feed = feed;
        this.likeShards = likeShards;
    }

    /**
     * The post with its likeCount in one Query: POST#p, sk BETWEEN 'COUNT#' AND 'METADATA' (the metadata and the
     * likeCount shards, summed).
     */
    public Uni<Optional<PostView>> findPost(String postId) {
        Key metadata = PostKeys.metadata(postId);
        KeyQuery query = KeyQuery.of(Index.TABLE, PostKeys.partition(postId),
                SortKeyCondition.between(KeyPlan.POST_LIKE_COUNTER.sk().prefix(), metadata.sk()), true);
        return table.query(query, new PageRequest(likeShards + 1, null)).map(page -> {
            if (page.items().isEmpty() || !metadata.sk().equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            return Optional.of(PostView.of(page.items().get(0)).withLikes(likes(page.items())));
        });
    }

    /** The sum of the likeCount shards among these items of a post's partition. */
    private static long likes(List<Map<String, AttributeValue>> items) {
        return items.stream().filter(LikeProjector::isCounter).mapToLong(item -> Items.number(item,
                Attributes.LIKE_COUNT)).sum();
    }

    /** Pattern 2: Query USER#u, begins_with(sk, 'POST#'), newest first. */
    public Uni<Page<PostSummaryView>> listPostsOfUser(String userId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.TABLE, PostKeys.postsOf(userId),
                SortKeyCondition.beginsWith(PostKeys.summaryPrefix()), true);
        return table.query(query, page).map(result -> result.map(PostSummaryView::of));
    }

    /**
     * Pattern 3: the post, its likeCount shards and its newest comments in ONE Query. Its sort-key range covers the
     * metadata, the shards ({@code COUNT#} sorts between them) and the comments (the tombstone of a deleted post sorts
     * after it); read newest first, the metadata comes first, then the shards. The Query asks for room for every shard;
     * when fewer exist, the comments beyond the limit are dropped and {@code next} continues after the last one shown,
     * newest first, on {@code GET /posts/{id}/comments?order=desc}.
     */
    public Uni<Optional<PostView>> findPostWithComments(String postId, int commentLimit) {
        KeyQuery query = KeyQuery.of(Index.TABLE, PostKeys.partition(postId),
                SortKeyCondition.between(CommentKeys.prefix(), PostKeys.metadata(postId).sk()), true);
        KeyQuery continuation = commentsQuery(postId, true);
        return table.query(query, new PageRequest(commentLimit + 1 + likeShards, null), continuation).map(page -> {
            if (page.items().isEmpty() || !PostKeys.metadata(postId).sk().equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            List<Map<String, AttributeValue>> rest = page.items().subList(1, page.items().size());
            List<Map<String, AttributeValue>> comments = rest.stream().filter(item -> !LikeProjector.isCounter(item))
                    .toList();
            String next = page.next();
            if (comments.size() > commentLimit) {
                comments = comments.subList(0, commentLimit);
                next = table.cursorAfter(continuation, comments.get(commentLimit - 1));
            }
            return Optional.of(PostView.of(page.items().get(0)).withLikes(likes(rest))
                    .withComments(new Page<>(comments.stream().map(CommentView::of).toList(), next)));
        });
    }

    /** Pattern 4: Query POST#p, begins_with(sk, 'COMMENT#'), oldest or newest first. */
    public Uni<Page<CommentView>> listComments(String postId, boolean newestFirst, PageRequest page) {
        return table.query(commentsQuery(postId, newestFirst), page).map(result -> result.map(CommentView::of));
    }

    private static KeyQuery commentsQuery(String postId, boolean newestFirst) {
        return KeyQuery.of(Index.TABLE, PostKeys.partition(postId), SortKeyCondition.beginsWith(CommentKeys.prefix()),
                newestFirst);
    }

    /**
     * Pattern 5: the published feed, newest first, from every GSI1 shard in parallel, merged; then the page's likeCount
     * shards in one batched read (BatchGetItem, 100 keys a call, all calls at once).
     */
    public Uni<Page<PostView>> listPublished(PageRequest page) {
        List<KeyQuery> shards = PostKeys.feedPartitions(feed.shards()).stream()
                .map(partition -> KeyQuery.of(Index.GSI1, partition, SortKeyCondition.any(), true))
                .toList();
        return table.queryMerged(shards, page).map(result -> result.map(PostView::of)).chain(posts -> {
            Map<Key, String> postOfCounter = new HashMap<>();
            posts.items().forEach(post -> LikeProjector.counters(post.id(), likeShards)
                    .forEach(counter -> postOfCounter.put(counter, post.id())));
            return table.getAll(List.copyOf(postOfCounter.keySet())).map(counters -> {
                Map<String, Long> likes = new HashMap<>();
                counters.forEach(counter -> likes.merge(postOfCounter.get(new Key(Items.string(counter, Key.PK),
                        Items.string(counter, Key.SK))), Items.number(counter, Attributes.LIKE_COUNT), Long::sum));
                return posts.map(post -> post.withLikes(likes.getOrDefault(post.id(), 0L)));
            });
        });
    }

    /** Pattern 6: Query GSI2 AUTHOR#u, newest first. */
    public Uni<Page<CommentView>> listCommentsOfUser(String userId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.GSI2, CommentKeys.byAuthorPartition(userId), SortKeyCondition.any(), true);
        return table.query(query, page).map(result -> result.map(CommentView::of));
    }

    /** Pattern 17: Query GSI1 COMMENT#c, to find a comment from its id alone. */
    public Uni<Optional<CommentView>> findComment(String commentId) {
        KeyQuery query = KeyQuery.of(Index.GSI1, CommentKeys.byIdPartition(commentId), SortKeyCondition.any(), false);
        return table.query(query, new PageRequest(1, null))
                .map(page -> page.items().stream().findFirst().map(CommentView::of));
    }

    /** PATCH and DELETE /posts/{id} and its publish honour If-Match against the post's metadata item. */
    @Produces
    @Singleton
    static TaggedResource postTags() {
        return TaggedPath.of("/posts/", PostKeys::metadata, "publish");
    }
}
