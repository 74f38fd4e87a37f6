package dev.cabinet.post;

import java.util.Map;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.Rejections;
import dev.cabinet.query.Items;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Applies an event of a post's stream (post and comment events, keyed by post id) against the post's metadata, the
 * stream's root item: see {@link Progress}. When the post is gone, its tombstone tells an event that was applied before
 * the deletion (skip it) from one that comes after it or names a post that never existed (reject it).
 */
@ApplicationScoped
public class PostStream {

    private final ProjectionStore store;
    private final Rejections rejections;

    PostStream(ProjectionStore store, Rejections rejections) {
        this.store = store;
        this.rejections = rejections;
    }

    public Uni<Void> apply(ReceivedEvent event, String postId,
            BiFunction<Map<String, AttributeValue>, Progress, Uni<Void>> step) {
        return store.read(PostKeys.metadata(postId)).chain(root -> {
            if (root.isPresent()) {
                Progress progress = Progress.of(root.get(), PostKeys.VERSION, event.version());
                return progress == Progress.DONE ? Uni.createFrom().voidItem() : step.apply(root.get(), progress);
            }
            return deletedAfter(postId, event.version()).chain(deletedLater -> deletedLater
                    ? Uni.createFrom().voidItem()
                    : rejections.reject(event, "post " + postId + " does not exist"));
        });
    }

    /** Whether the post was deleted by this event or a later one, so an event at {@code version} is already settled. */
    Uni<Boolean> deletedAfter(String postId, long version) {
        return store.read(PostKeys.tombstone(postId))
                .map(tombstone -> tombstone.map(item -> Items.number(item, PostKeys.VERSION) >= version).orElse(false));
    }
}
