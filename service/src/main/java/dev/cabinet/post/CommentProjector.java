package dev.cabinet.post;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.Profiles;
import io.smallrye.mutiny.Uni;

/**
 * Projects comments into their post's partition (patterns 3 and 4) with the author's name and avatar copied, and with
 * entries in GSI1 (by id) and GSI2 (the author's comments, pattern 6). The post's commentCount changes in the same
 * write that records the event on the post, so it stays exact under redelivery.
 */
@ApplicationScoped
public class CommentProjector implements LegacyProjector {

    private final ProjectionStore store;
    private final PostStream stream;
    private final Profiles profiles;

    CommentProjector(ProjectionStore store, PostStream stream, Profiles profiles) {
        this.store = store;
        this.stream = stream;
        this.profiles = profiles;
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(CommentEvent.ADDED, CommentEvent.DELETED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        CommentEvent data = (CommentEvent) event.data();
        return stream.apply(event, data.postId(), (post, progress) -> data instanceof CommentAdded added
                ? added(added, progress, event.version())
                : deleted((CommentDeleted) data, progress, event.version()));
    }

    private Uni<Void> added(CommentAdded e, Progress progress, long version) {
        Key key = CommentKeys.comment(e.postId(), e.createdAt(), e.commentId());
        Uni<Boolean> counted = progress == Progress.NEW ? store.update(countOnPost(e.postId(), 1, version))
                : Uni.createFrom().item(true);
        return counted.chain(() -> profiles.writeCopies(e.authorId(),
                profile -> store.update(profile.writeNameAndAvatar(ItemUpdate.of(key, KeyPlan.COMMENT.name())
                        .set("commentId", e.commentId())
                        .set("postId", e.postId())
                        .set("authorId", e.authorId())
                        .set("text", e.text())
                        .set("createdAt", e.createdAt())
                        .set(Index.GSI1.pkAttribute(), CommentKeys.byIdPartition(e.commentId()))
                        .set(Index.GSI1.skAttribute(), CommentKeys.byIdSortKey(e.postId()))
                        .set(Index.GSI2.pkAttribute(), CommentKeys.byAuthorPartition(e.authorId()))
                        .set(Index.GSI2.skAttribute(), CommentKeys.byAuthorSortKey(e.createdAt(), e.commentId()))
                        .guardedBy(PostKeys.VERSION, version), "authorName", "authorAvatar")),
                profile -> CommentAuthorCopies.refresh(store, profile, key)));
    }

    /** Counts the comment off only if it is still there: deleting a comment twice changes the count once. */
    private Uni<Void> deleted(CommentDeleted e, Progress progress, long version) {
        Key key = CommentKeys.comment(e.postId(), e.createdAt(), e.commentId());
        Uni<Boolean> counted = progress == Progress.NEW
                ? store.read(key).chain(comment -> store.update(countOnPost(e.postId(), comment.isPresent() ? -1 : 0,
                        version)))
                : Uni.createFrom().item(true);
        return counted.chain(() -> store.delete(key, PostKeys.VERSION, version)).replaceWithVoid();
    }

    /** Records the event on the post (its root) and changes its comment count in one conditional write. */
    private static ItemUpdate countOnPost(String postId, long delta, long version) {
        return ItemUpdate.of(PostKeys.metadata(postId)).increment("commentCount", delta).onlyIfExists()
                .guardedBy(PostKeys.VERSION, version);
    }
}
