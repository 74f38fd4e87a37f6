package dev.cabinet.projection;

import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Functions.Function3;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Applies an event against its aggregate's root item (see {@link Progress}): an event that creates the aggregate must
 * find no root (or its own), any other must find one; otherwise it is rejected. An event the root has already seen
 * past is skipped. For aggregates that can be deleted, a tombstone keeps the version of the deletion, so that an
 * event applied before it, delivered again, is skipped rather than taken for a new one.
 */
@ApplicationScoped
public class StreamRoot {

    private final ProjectionStore store;
    private final Rejections rejections;

    StreamRoot(ProjectionStore store, Rejections rejections) {
        this.store = store;
        this.rejections = rejections;
    }

    /**
     * @param aggregate how the rejection names the aggregate, e.g. "group g1"
     * @param step what the event does, given the root (empty only for a creation) and how far it got
     */
    public Uni<Void> apply(ReceivedEvent event, Key root, String versionAttribute, String aggregate, boolean creates,
            BiFunction<Optional<Map<String, AttributeValue>>, Progress, Uni<Void>> step) {
        return apply(event, root, null, versionAttribute, aggregate, creates, step);
    }

    /** As above, for an aggregate whose deletion leaves a {@code tombstone} holding the deletion's version. */
    public Uni<Void> apply(ReceivedEvent event, Key root, Key tombstone, String versionAttribute, String aggregate,
            boolean creates, BiFunction<Optional<Map<String, AttributeValue>>, Progress, Uni<Void>> step) {
        return apply(event, root, tombstone, versionAttribute, aggregate, creates, Uni.createFrom().item(Boolean.TRUE),
                (item, progress, nothing) -> step.apply(item, progress));
    }

    /**
     * As above, with another read the step needs ({@code alongside}, e.g. the author's profile) made at the same time
     * as the root's: one round trip instead of two. A creation also reads the tombstone at once, since it expects to
     * find no root.
     */
    public <T> Uni<Void> apply(ReceivedEvent event, Key root, Key tombstone, String versionAttribute, String aggregate,
            boolean creates, Uni<T> alongside,
            Function3<Optional<Map<String, AttributeValue>>, Progress, T, Uni<Void>> step) {
        boolean tombstoneAtOnce = creates && tombstone != null;
        Uni<Optional<Map<String, AttributeValue>>> tombstoneRead = tombstoneAtOnce ? store.read(tombstone)
                : Uni.createFrom().item(Optional.empty());
        return Uni.combine().all().unis(store.read(root), tombstoneRead, alongside).asTuple().chain(reads -> {
            Optional<Map<String, AttributeValue>> item = reads.getItem1();
            T other = reads.getItem3();
            if (item.isEmpty()) {
                Uni<Optional<Map<String, AttributeValue>>> tombstoneNow = tombstone == null
                        ? Uni.createFrom().item(Optional.empty())
                        : tombstoneAtOnce ? Uni.createFrom().item(reads.getItem2()) : store.read(tombstone);
                return tombstoneNow.map(found -> found
                        .map(t -> Items.number(t, versionAttribute) >= event.version()).orElse(false))
                        .chain(deletedSince -> deletedSince ? Uni.createFrom().voidItem()
                                : creates ? step.apply(item, Progress.NEW, other)
                                        : rejections.reject(event, aggregate + " does not exist"));
            }
            Progress progress = Progress.of(item.get(), versionAttribute, event.version());
            if (creates && progress == Progress.NEW) {
                return rejections.reject(event, aggregate + " already exists");
            }
            return progress == Progress.DONE ? Uni.createFrom().voidItem() : step.apply(item, progress, other);
        });
    }
}
