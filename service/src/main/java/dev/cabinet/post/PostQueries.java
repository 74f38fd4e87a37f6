package dev.cabinet.post;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import io.smallrye.mutiny.Uni;

/** The post reads, one method per access pattern. */
@ApplicationScoped
public class PostQueries {

    private final TableReader table;
    private final FeedConfig feed;

    PostQueries(TableReader table, FeedConfig feed) {
        this.table = table;
        this.feed = feed;
    }

    /** GetItem POST#p / METADATA. */
    public Uni<Optional<PostView>> findPost(String postId) {
        return table.get(PostKeys.metadata(postId)).map(item -> item.map(PostView::of));
    }

    /** Pattern 2: Query USER#u, begins_with(sk, 'POST#'), newest first. */
    public Uni<Page<PostSummaryView>> listPostsOfUser(String userId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.TABLE, PostKeys.postsOf(userId),
                SortKeyCondition.beginsWith(PostKeys.summaryPrefix()), true);
        return table.query(query, page).map(result -> result.map(PostSummaryView::of));
    }

    /**
     * Pattern 3: the post and its newest comments in ONE Query. Its sort-key range covers the metadata and the comments
     * (the tombstone of a deleted post sorts after it); read newest first, the metadata comes first. The page's
     * {@code next} continues the comments, newest first, on {@code GET /posts/{id}/comments?order=desc}.
     */
    public Uni<Optional<PostView>> findPostWithComments(String postId, int commentLimit) {
        KeyQuery query = KeyQuery.of(Index.TABLE, PostKeys.partition(postId),
                SortKeyCondition.between(CommentKeys.prefix(), PostKeys.metadata(postId).sk()), true);
        return table.query(query, new PageRequest(commentLimit + 1, null), commentsQuery(postId, true)).map(page -> {
            if (page.items().isEmpty() || !PostKeys.metadata(postId).sk().equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            List<CommentView> comments = page.items().subList(1, page.items().size()).stream().map(CommentView::of).toList();
            return Optional.of(PostView.of(page.items().get(0)).withComments(new Page<>(comments, page.next())));
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

    /** Pattern 5: the published feed, newest first, from every GSI1 shard in parallel, merged. */
    public Uni<Page<PostView>> listPublished(PageRequest page) {
        List<KeyQuery> shards = PostKeys.feedPartitions(feed.shards()).stream()
                .map(partition -> KeyQuery.of(Index.GSI1, partition, SortKeyCondition.any(), true))
                .toList();
        return table.queryMerged(shards, page).map(result -> result.map(PostView::of));
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
