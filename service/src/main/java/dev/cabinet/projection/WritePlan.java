package dev.cabinet.projection;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.cabinet.table.Index;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What one event does to the table, decided by a {@link Projector} as a value: either a rejection, or the write on the
 * stream's root (or the tombstone a deletion leaves) followed by the {@link Step}s the {@link
 * dev.cabinet.projection.execution.PlanExecutor} carries out. A plan says nothing about versions, tokens, redelivery or
 * order between independent writes: the executor adds the stream's version guard to every write, records the steps on
 * the root so a half-applied event is finished as decided (a person's data withheld from the record is decided again),
 * and issues the steps concurrently where they do not depend on each other.
 */
public final class WritePlan {

    /** One effect of a plan besides the root write. All are data, so that the root can record them for a redo. */
    public sealed interface Step permits Write, Delete, DeleteCollection, Count, CopyCheck, RefreshCopies, FanOut,
            Derive, DeriveChildren, Put, OrphanCheck {
    }

    /** An item write; the executor guards it by the stream's version unless it already carries a guard of its own. */
    public record Write(ItemUpdate update) implements Step {
    }

    /** Deletes the item unless it has seen a later version of the stream. */
    public record Delete(Key key) implements Step {
        /** An item of a permanent type is never deleted: decisions that only ask whether one exists rely on it. */
        public Delete {
            KeyPlan.typeOf(key).filter(ItemType::permanent).ifPresent(type -> {
                throw new IllegalArgumentException(type.name() + " items are never deleted (KeyPlan declares the type "
                        + "permanent), yet a plan deletes " + key);
            });
        }
    }

    /** Deletes every item the query finds: a collection that goes away with its owner. */
    public record DeleteCollection(KeyQuery query) implements Step {
        /** A table partition that holds items of a permanent type is never deleted whole. */
        public DeleteCollection {
            KeyPlan.ITEM_TYPES.stream().filter(type -> type.permanent() && query.index() == Index.TABLE
                    && type.pk().matches(query.partition())).findFirst().ifPresent(type -> {
                        throw new IllegalArgumentException(type.name() + " items are never deleted (KeyPlan declares "
                                + "the type permanent), yet a plan deletes the partition " + query.partition());
                    });
        }
    }

    /**
     * Changes {@code attribute} of the {@code counter} item by {@code delta} exactly once, the {@code marker} item (the
     * thing counted) recording in {@code markerFlag} that it was counted; the executor supplies the token.
     */
    public record Count(Key counter, ItemType counterType, String attribute, long delta, Key marker, String markerFlag)
            implements Step {
    }

    /**
     * The second look a new copy of another item's attributes needs: after this plan's writes, the executor reads the
     * {@code source} again and, if its {@code sourceVersion} moved past {@code copiedVersion}, refreshes {@code holders}.
     */
    public record CopyCheck(Key source, long copiedVersion, List<Key> holders) implements Step {
    }

    /**
     * The second look an item written under another aggregate needs (a like of a post, on the like's own stream): after
     * this plan's writes and counts, the executor reads the owner's {@code tombstone} and, if the owner was deleted
     * meanwhile, deletes the {@code orphans}. The owner's deletion writes its tombstone before it deletes what it owns,
     * so either that delete finds this plan's writes or this look finds the tombstone.
     */
    public record OrphanCheck(Key tombstone, List<Key> orphans) implements Step {
    }

    /**
     * Refreshes every declared copy of the {@code source} item's attributes, wherever the key plan says they live;
     * {@code whenBatchEnds}: the walk only repairs copies made before the source existed (a profile's first
     * registration, which live comes before anything copies it, and a replay may not), so the executor makes it with
     * the checks when the batch ends, off the event's path, rather than as the event's last round.
     */
    public record RefreshCopies(Key source, boolean whenBatchEnds) implements Step {

        /** A walk on the event's path: a change of the source that its copies follow. */
        public RefreshCopies(Key source) {
            this(source, false);
        }

        /** A walk that only repairs copies made before the source existed, made when the batch ends. */
        public static RefreshCopies whenBatchEnds(Key source) {
            return new RefreshCopies(source, true);
        }
    }

    /**
     * For each item the query finds, applies {@code change} to the item of type {@code target} whose key the found
     * item's attributes compose (null: the found item itself).
     */
    public record FanOut(KeyQuery query, ItemType target, ItemUpdate change) implements Step {
    }

    /**
     * Recomputes a derived attribute of the item (and what depends on it) by the named derivation; {@code passDown}:
     * the event's own write already gave the item its new derived attributes (a folder's rename, its path), so the
     * derivation finds it up to date, and its children must look again all the same. {@code derivedFrom}, when not
     * null, is the item the decision read and derived the attributes from in the event's own write (a new subfolder's
     * parent): the derivation then only checks them, when the batch ends, off the event's path, and that read does not
     * keep the event's writes from going out with its recording ({@link
     * dev.cabinet.projection.execution.Rounds#recordsWithWrites}), as a copy's source read does not.
     */
    public record Derive(String derivation, Key key, boolean passDown, Key derivedFrom) implements Step {

        /** A derivation whose children look again only if the item's derived attributes change. */
        public Derive(String derivation, Key key) {
            this(derivation, key, false, null);
        }

        /** A derivation made on the event's path, passed down to the children when {@code passDown}. */
        public Derive(String derivation, Key key, boolean passDown) {
            this(derivation, key, passDown, null);
        }

        /** A check, when the batch ends, of attributes the event wrote as derived from {@code derivedFrom} as read. */
        public static Derive checking(String derivation, Key key, Key derivedFrom) {
            return new Derive(derivation, key, false, derivedFrom);
        }

        /** Whether the executor makes it when the batch ends rather than on the event's path. */
        public boolean whenBatchEnds() {
            return derivedFrom != null;
        }
    }

    /**
     * The named derivation run again for each child of the item when the batch ends: children written before the item
     * existed (a replay of the log can bring a subfolder before its parent) take their derived attributes from it.
     * Made after the item's writes, so a child written meanwhile is either found by this walk or finds the item in its
     * own derivation.
     */
    public record DeriveChildren(String derivation, Key key) implements Step {
    }

    /** A whole item written as it is, unconditionally: a fact that is the same however often it is written. */
    public record Put(Map<String, AttributeValue> item) implements Step {
    }

    private final String rejection;
    private final ItemUpdate root;
    private final boolean deletesRoot;
    private final List<Step> steps;
    private final Set<Key> alikeAfterWriting = new LinkedHashSet<>();

    private WritePlan(String rejection, ItemUpdate root, boolean deletesRoot, List<Step> steps) {
        this.rejection = rejection;
        this.root = root;
        this.deletesRoot = deletesRoot;
        this.steps = steps;
    }

    /** The event cannot be applied; the reason is recorded as its outcome. */
    public static WritePlan reject(String reason) {
        return new WritePlan(reason, null, false, List.of());
    }

    /** The root write (for a creation, the whole root item); then the steps added to the plan. */
    public static WritePlan onRoot(ItemUpdate rootWrite) {
        return new WritePlan(null, rootWrite, false, new ArrayList<>());
    }

    /** Records the event on the root without changing anything else of it; then the steps. */
    public static WritePlan onRoot() {
        return new WritePlan(null, null, false, new ArrayList<>());
    }

    /**
     * Deletes the aggregate: the tombstone is written first, then the steps run, and the root goes with the first of
     * them or after them all (Rounds#deletesRootEarly).
     */
    public static WritePlan deleting(ItemUpdate tombstone) {
        return new WritePlan(null, tombstone, true, new ArrayList<>());
    }

    /** A plan of steps alone, for an event without a stream ({@link StreamTarget#none()}). */
    public static WritePlan facts() {
        return new WritePlan(null, null, false, new ArrayList<>());
    }

    public WritePlan then(Step step) {
        if (rejection != null) {
            throw new IllegalStateException("a rejection has no steps");
        }
        if (step instanceof Count count && steps.stream().anyMatch(other -> other instanceof Count earlier
                && earlier.counter().equals(count.counter()))) {
            // The executor's token is the event's id, and its condition holds for the whole item: a second count on
            // the same counter, even of another attribute, would be refused and taken for one made before.
            throw new IllegalStateException("a plan counts on " + count.counter() + " once at most");
        }
        steps.add(step);
        return this;
    }

    public WritePlan write(ItemUpdate update) {
        return then(new Write(update));
    }

    public WritePlan delete(Key key) {
        return then(new Delete(key));
    }

    /**
     * Declares that the decision reads {@code key}, which this plan writes too, and decides alike when the item already
     * carries this plan's own write ({@link Reads#writtenByThisEvent}: an earlier attempt made it, then crashed before
     * its recording landed). The executor may then send that write with the recording write, a round sooner ({@link
     * dev.cabinet.projection.execution.Rounds#recordsWithWrites}); the capacity model's {@code
     * CrashInAnyRoundTest} crashes every event there and holds the plan to it.
     */
    public WritePlan decidesAlikeAfterWriting(Key key) {
        if (rejection != null) {
            throw new IllegalStateException("a rejection writes nothing");
        }
        alikeAfterWriting.add(key);
        return this;
    }

    /** The keys of {@link #decidesAlikeAfterWriting}. */
    public Set<Key> alikeAfterWriting() {
        return Set.copyOf(alikeAfterWriting);
    }

    public Optional<String> rejection() {
        return Optional.ofNullable(rejection);
    }

    /** The root write (or the tombstone, for a deletion); null when the event only records its version on the root. */
    public ItemUpdate root() {
        return root;
    }

    public boolean deletesRoot() {
        return deletesRoot;
    }

    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** Plans are equal when they read the same: what table-style tests of decisions compare. */
    @Override
    public boolean equals(Object other) {
        return other instanceof WritePlan plan && toString().equals(plan.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    @Override
    public String toString() {
        return rejection != null ? "reject(" + rejection + ")"
                : (deletesRoot ? "deleting(" : "onRoot(") + root + ") then " + steps
                        + (alikeAfterWriting.isEmpty() ? "" : ", alike after writing " + alikeAfterWriting);
    }
}
