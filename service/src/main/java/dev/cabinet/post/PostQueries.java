package dev.cabinet.post;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.query.KeyQuery;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.query.SortKeyCondition;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Index;
import io.smallrye.mutiny.Uni;

/** The post reads, one method per access pattern. */
@ApplicationScoped
public class PostQueries {

    private final TableReader table;

    PostQueries(TableReader table) {
        this.table = table;
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
}
