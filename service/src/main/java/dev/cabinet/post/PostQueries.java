package dev.cabinet.post;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.Items;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
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

    /** Pattern 3 without comments: GetItem of the post's metadata. */
    public Uni<Optional<PostView>> findPost(String postId) {
        return table.get(KeyPlan.POST.key(postId)).map(item -> item.map(PostView::of));
    }

    /** Pattern 2: the user's post summaries, newest first. */
    public Uni<Page<PostSummaryView>> listPostsOfUser(String userId, PageRequest page) {
        return table.query(KeyPlan.USER_POSTS.query(userId), page).map(result -> result.map(PostSummaryView::of));
    }

    /**
     * Pattern 3: the post and its newest comments in ONE Query. Its sort-key range covers the metadata and the comments
     * (the tombstone of a deleted post sorts after it); read newest first, the metadata comes first. The page's
     * {@code next} continues the comments, newest first, on {@code GET /posts/{id}/comments?order=desc}.
     */
    public Uni<Optional<PostView>> findPostWithComments(String postId, int commentLimit) {
        String metadata = KeyPlan.POST.key(postId).sk();
        return table.query(KeyPlan.POST_WITH_COMMENTS.query(postId), new PageRequest(commentLimit + 1, null),
                KeyPlan.POST_COMMENTS.inOrder(true, postId)).map(page -> {
            if (page.items().isEmpty() || !metadata.equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            List<CommentView> comments = page.items().subList(1, page.items().size()).stream().map(CommentView::of).toList();
            return Optional.of(PostView.of(page.items().get(0)).withComments(new Page<>(comments, page.next())));
        });
    }

    /** Pattern 4: the post's comments, oldest or newest first. */
    public Uni<Page<CommentView>> listComments(String postId, boolean newestFirst, PageRequest page) {
        return table.query(KeyPlan.POST_COMMENTS.inOrder(newestFirst, postId), page)
                .map(result -> result.map(CommentView::of));
    }

    /** Pattern 5: the published feed, newest first, from every GSI1 shard in parallel, merged. */
    public Uni<Page<PostView>> listPublished(PageRequest page) {
        return table.queryMerged(KeyPlan.PUBLISHED_POSTS.shards(feed.shards()), page)
                .map(result -> result.map(PostView::of));
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
