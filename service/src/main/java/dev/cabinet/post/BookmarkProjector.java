package dev.cabinet.post;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.BookmarkEvent.PostBookmarked;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/**
 * Bookmarks as pure decisions. Each (post, user) bookmark is its own stream whose root is the bookmark item, under
 * the post's bookmarks partition; it toggles {@code bookmarked}, and its sparse GSI2 entry (the user's bookmarks,
 * newest first) exists only while bookmarked. A bookmark reads nothing but its own item, for the reason a like does
 * ({@link LikeProjector#needs}): one written while or after its post is deleted looks again at the post's tombstone
 * when its batch ends and goes.
 */
@ApplicationScoped
public class BookmarkProjector implements Projector<BookmarkEvent> {

    @Override
    public List<EventType<? extends BookmarkEvent>> eventTypes() {
        return List.of(BookmarkEvent.BOOKMARKED, BookmarkEvent.REMOVED);
    }

    /**
     * A first bookmark creates the bookmark's item, a later one finds it; a removal finds it too, unless its post's
     * deletion took it first (see {@link LikeProjector#target}).
     */
    @Override
    public StreamTarget target(BookmarkEvent event) {
        return StreamTarget.upserting(KeyPlan.BOOKMARK_STREAM, event.postId(), event.userId());
    }

    /**
     * Every plan ends with the second look at the post's tombstone: each writes the bookmark's item, if only by its
     * recording write (which may make the item again should the post's deletion have taken it since it was read).
     */
    @Override
    public WritePlan decide(BookmarkEvent event, Reads reads) {
        Key bookmark = KeyPlan.BOOKMARK.key(event.postId(), event.userId());
        return written(event, reads, bookmark).then(PostProjector.goneWithPost(event.postId(), List.of(bookmark)));
    }

    private static WritePlan written(BookmarkEvent event, Reads reads, Key bookmark) {
        boolean bookmarked = reads.root().map(item -> Items.isTrue(item, Attributes.BOOKMARKED)).orElse(false);
        if (event instanceof PostBookmarked saved) {
            if (bookmarked) {
                return WritePlan.onRoot();   // saved twice (the API appends a repeat): nothing changes
            }
            return WritePlan.onRoot(KeyPlan.BOOKMARK.write(Map.of(Attributes.POST_ID, saved.postId(),
                    Attributes.USER_ID, saved.userId(), Attributes.BOOKMARKED, true,
                    Attributes.CREATED_AT, saved.bookmarkedAt())));
        }
        if (reads.root().isEmpty()) {
            // Its bookmark went with its post (or there never was one): recorded on an item that says so, which the
            // orphan check takes once the post is gone.
            return WritePlan.onRoot(ItemUpdate.of(bookmark, KeyPlan.BOOKMARK.name())
                    .set(Attributes.POST_ID, event.postId()).set(Attributes.USER_ID, event.userId())
                    .set(Attributes.BOOKMARKED, false));
        }
        if (!bookmarked) {
            return WritePlan.onRoot();   // removed twice: nothing changes
        }
        return WritePlan.onRoot(ItemUpdate.of(bookmark)
                .set(Attributes.BOOKMARKED, false)
                .set(Index.GSI2.pkAttribute(), null)    // out of the user's bookmarks (the sparse index)
                .set(Index.GSI2.skAttribute(), null));
    }
}
