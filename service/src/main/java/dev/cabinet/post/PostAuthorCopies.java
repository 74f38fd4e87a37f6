package dev.cabinet.post;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;
import dev.cabinet.user.ProfileCopies;
import dev.cabinet.user.ProfileCopy;
import io.smallrye.mutiny.Uni;

/** Keeps the author's name on their posts' metadata: walks the author's post summaries (pattern 2's key condition). */
@ApplicationScoped
public class PostAuthorCopies implements ProfileCopies {

    private final ProjectionStore store;

    PostAuthorCopies(ProjectionStore store) {
        this.store = store;
    }

    @Override
    public Uni<Void> refresh(ProfileCopy profile) {
        KeyQuery posts = KeyQuery.of(Index.TABLE, PostKeys.postsOf(profile.userId()),
                SortKeyCondition.beginsWith(PostKeys.summaryPrefix()), false);
        return store.forEach(posts, summary -> refresh(store, profile, Items.string(summary, "postId"))).replaceWithVoid();
    }

    static Uni<Boolean> refresh(ProjectionStore store, ProfileCopy profile, String postId) {
        return store.update(profile.refresh(ItemUpdate.of(PostKeys.metadata(postId)).set("authorName", profile.name())));
    }
}
