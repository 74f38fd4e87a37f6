package dev.cabinet.post;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.user.ProfileCopies;
import dev.cabinet.user.ProfileCopy;
import io.smallrye.mutiny.Uni;

/**
 * Keeps the author's name and avatar on every comment they wrote: walks the author's GSI2 partition (pattern 6's key
 * condition). GSI reads are eventually consistent; a comment written in the same instant is covered by the comment
 * side's own second look at the profile ({@link dev.cabinet.user.Profiles#writeCopies}).
 */
@ApplicationScoped
public class CommentAuthorCopies implements ProfileCopies {

    private final ProjectionStore store;

    CommentAuthorCopies(ProjectionStore store) {
        this.store = store;
    }

    @Override
    public Uni<Void> refresh(ProfileCopy profile) {
        KeyQuery comments = KeyQuery.of(Index.GSI2, CommentKeys.byAuthorPartition(profile.userId()),
                SortKeyCondition.any(), false);
        return store.forEach(comments, comment -> refresh(store, profile, new Key(Items.string(comment, Key.PK),
                Items.string(comment, Key.SK)))).replaceWithVoid();
    }

    static Uni<Boolean> refresh(ProjectionStore store, ProfileCopy profile, Key comment) {
        return store.update(profile.refresh(ItemUpdate.of(comment)
                .set("authorName", profile.name())
                .set("authorAvatar", profile.avatarUrl())));
    }
}
