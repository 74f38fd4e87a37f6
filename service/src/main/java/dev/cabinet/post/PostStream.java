package dev.cabinet.post;

import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.projection.Progress;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.projection.StreamRoot;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Functions.Function3;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Applies an event of a post's stream (post and comment events, keyed by post id) against the post's metadata, the
 * stream's root item, through {@link StreamRoot}: when the post is gone, its tombstone tells an event that was applied
 * before the deletion (skip it) from one that comes after it or names a post that never existed (reject it).
 */
@ApplicationScoped
public class PostStream {

    private final StreamRoot root;

    PostStream(StreamRoot root) {
        this.root = root;
    }

    /** An event of an existing post. */
    public Uni<Void> apply(ReceivedEvent event, String postId,
            BiFunction<Map<String, AttributeValue>, Progress, Uni<Void>> step) {
        return apply(event, postId, false, (post, progress) -> step.apply(post.orElseThrow(), progress));
    }

    /** A post's creation, with the author's profile read alongside the root. */
    <T> Uni<Void> create(ReceivedEvent event, String postId, Uni<T> author,
            Function3<Optional<Map<String, AttributeValue>>, Progress, T, Uni<Void>> step) {
        return root.apply(event, PostKeys.metadata(postId), PostKeys.tombstone(postId), PostKeys.VERSION,
                "post " + postId, true, author, step);
    }

    /** Any event of the post's stream; the root is empty only for a creation. */
    Uni<Void> apply(ReceivedEvent event, String postId, boolean creates,
            BiFunction<Optional<Map<String, AttributeValue>>, Progress, Uni<Void>> step) {
        return root.apply(event, PostKeys.metadata(postId), PostKeys.tombstone(postId), PostKeys.VERSION,
                "post " + postId, creates, step);
    }
}
