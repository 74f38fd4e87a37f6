package dev.cabinet.projection.execution;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.cabinet.projection.Projector;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.Derive;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.projection.WritePlan.Put;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;

/**
 * The rules that place a plan's steps in store rounds from the plan alone (pure, no I/O): whether the first writes go
 * with the recording write, which fan-outs and counts go with the first phase, when a deletion's root and each delete
 * go. The rules that also depend on what this attempt met stay in the executor (a count beside its marker's write, the
 * walks begun beside the recording, the steps made when the batch ends). {@link PlanExecutor} carries the rounds out;
 * each rule says why a crash between any two rounds stays repairable (RecordingWithWritesTest, DeletePhaseTest,
 * CrashInAnyRoundTest).
 */
public final class Rounds {

    private Rounds() {
    }

    /**
     * Whether a new event's first writes may go out together with its recording write, one round instead of two
     * (pure). Recording first exists for a crash between the two: the redelivered event finds nothing recorded and is
     * decided again, from what it reads then. Sent together, that is safe when deciding again gives the same plan
     * and every write already made is refused by its guard:
     * <ul>
     * <li>the event does not delete its root (a deletion's tombstone must be there before what it owns goes: an owned
     * item written meanwhile either sees it or is found by the deletion) and the plan's root write carries no
     * condition of its own (a refused recording must not leave its steps applied);</li>
     * <li>every key it read ({@link Projector#existenceNeeds} aside: permanent items whose existence cannot change back)
     * is in the root's partition (the stream's own items, which only the stream's events change, one at a time) or is
     * the source of one of its copy checks (read only to copy from: a copy is checked again after the writes, see
     * {@code PlanExecutor.Steps#repeated}) or the item a derivation checked at the batch's end derives from (read only
     * to derive from: the check reads it again after the writes, see {@link Derive#derivedFrom});</li>
     * <li>no write of the first phase (an early fan-out's included, see {@link #fansOutEarly}) is on the root, the
     * tombstone or a key it read (a decision that read its own partial writes could decide otherwise), unless the plan
     * declares that it decides alike after that write ({@link WritePlan#decidesAlikeAfterWriting}: it tells its own
     * write by the event's version the item then carries, which the executor's guard writes), and none
     * deletes a whole collection; a count may change a counter on a
     * copy's source (an author's post count on the profile the post copies the name from): a counter's change is
     * guarded by its token, and the decision reads from that item only what it copies, which no count changes.</li>
     * </ul>
     */
    public static boolean recordsWithWrites(StreamTarget target, WritePlan plan, List<Key> read) {
        if (target.isNone() || plan.deletesRoot() || plan.root() != null && plan.root().hasCondition()) {
            return false;
        }
        Key root = target.root();
        // Read only to copy or derive from, and looked at again after the writes.
        Set<Key> copied = new HashSet<>();
        for (Step step : plan.steps()) {
            if (step instanceof CopyCheck check) {
                copied.add(check.source());
            } else if (step instanceof Derive derive && derive.whenBatchEnds()) {
                copied.add(derive.derivedFrom());
            }
        }
        boolean readsOnlyItsOwn = read.stream().allMatch(key -> key.pk().equals(root.pk()) || copied.contains(key));
        Set<Key> untouchable = new HashSet<>(read);
        untouchable.add(root);
        if (target.tombstone() != null) {
            untouchable.add(target.tombstone());
        }
        return readsOnlyItsOwn && plan.steps().stream().noneMatch(step -> step instanceof DeleteCollection
                || step instanceof FanOut fanOut && fansOutEarly(fanOut, target, plan.steps())
                        && untouchable.stream().anyMatch(fanOut.target()::matches)
                || step instanceof Write write && untouchable.contains(write.update().key())
                        && !alikeAfter(write, plan, target)
                || step instanceof Delete delete && untouchable.contains(delete.key())
                || step instanceof Put put && untouchable.contains(Key.of(put.item()))
                || step instanceof Count count && untouchable.contains(count.counter())
                        && !copied.contains(count.counter()));
    }

    /**
     * Whether the plan decides alike after this write of a key it read: declared so, on the stream's own partition
     * (whose items only the stream's events write) and carrying the event's version as the executor's guard writes it
     * (not a version guard of its own), by which the decision tells its own write.
     */
    private static boolean alikeAfter(Write write, WritePlan plan, StreamTarget target) {
        Key key = write.update().key();
        return plan.alikeAfterWriting().contains(key) && key.pk().equals(target.root().pk())
                && !write.update().mentions(target.stream().versionAttribute());
    }

    /**
     * Whether a fan-out goes out with the event's first writes rather than after them (pure): its query reads the
     * stream's own partition, whose items only the stream's events create or delete, one at a time (another stream may
     * refresh a copy on them, which the fan-out does not read), so what it finds cannot change before the event is
     * done; it changes items of a declared type that no other step of the plan writes or deletes;
     * and each change is guarded by the stream's version and made only on an item that exists. Made early, made again
     * by a redo, or made for an event whose recording another instance had made already, it changes nothing it should
     * not. A group's rename reaches its members' mirrors one round sooner.
     */
    public static boolean fansOutEarly(FanOut fanOut, StreamTarget target, List<Step> steps) {
        if (target.isNone() || fanOut.target() == null || fanOut.query().index() != Index.TABLE
                || !fanOut.query().partition().equals(target.root().pk())) {
            return false;
        }
        ItemType changed = fanOut.target();
        return !changed.matches(target.root()) && (target.tombstone() == null || !changed.matches(target.tombstone()))
                && steps.stream().noneMatch(step -> step instanceof Write write && changed.matches(write.update().key())
                        || step instanceof Delete delete && changed.matches(delete.key())
                        || step instanceof Put put && changed.matches(Key.of(put.item()))
                        || step instanceof DeleteCollection);
    }

    /**
     * The counts of a new event recorded before its writes that need not wait for them (pure): their markers are read
     * beside the recording write and their counters changed with the first phase, each marker the plan deletes going
     * right after its counts, a round or two sooner than the phases would make them (a post's deletion: its author's
     * post count and its summary). That is a count whose marker and counter are neither the stream's root nor its
     * tombstone, and no other step writes or puts either of them or may delete either with a collection: nothing
     * this event does before its counts changes what their looks find. The look is made before the recording lands,
     * not after; before it lands, no attempt of this event has recorded it, and so none has counted it (a count goes
     * beside the recording only where the plan writes its marker, and those are not among these), and an attempt
     * running beside this one after a partition's handover is held off by the owner epochs either way (docs/design.md,
     * "Owner epochs").
     */
    public static List<Count> countsEarly(StreamTarget target, WritePlan plan) {
        if (target.isNone()) {
            return List.of();
        }
        Set<Key> stream = new HashSet<>();
        stream.add(target.root());
        if (target.tombstone() != null) {
            stream.add(target.tombstone());
        }
        Set<Key> writtenByPlan = new HashSet<>();
        List<KeyQuery> collections = new ArrayList<>();
        for (Step step : plan.steps()) {
            if (step instanceof Write write) {
                writtenByPlan.add(write.update().key());
            } else if (step instanceof Put put) {
                writtenByPlan.add(Key.of(put.item()));
            } else if (step instanceof DeleteCollection collection) {
                collections.add(collection.query());
            }
        }
        return plan.steps().stream().filter(Count.class::isInstance).map(Count.class::cast)
                .filter(count -> !stream.contains(count.marker()) && !stream.contains(count.counter())
                        && !writtenByPlan.contains(count.marker()) && !writtenByPlan.contains(count.counter())
                        && collections.stream().noneMatch(query -> query.index() != Index.TABLE
                                || query.partition().equals(count.marker().pk())
                                || query.partition().equals(count.counter().pk())))
                .toList();
    }

    /**
     * Whether a deletion's root goes out with its first phase rather than last (pure): when the deletion is recorded on
     * a tombstone, which a redelivery redoes from whether the root is there or not ({@link StreamProgress}), and no
     * step looks at the root or writes it after the writes (only deletes, collection deletes and counts whose marker
     * and counter are other items: a counter change on a root gone would make a stub of it). A file's deletion takes a
     * round fewer: its entry in its folder and its root go together.
     */
    public static boolean deletesRootEarly(StreamTarget target, List<Step> steps) {
        return target.tombstone() != null && steps.stream().allMatch(step -> step instanceof Delete
                || step instanceof DeleteCollection
                || step instanceof Count count && !count.marker().equals(target.root())
                        && !count.counter().equals(target.root()));
    }

    /**
     * The markers the plan deletes right after their early counts (pure): each one every count of which is early and
     * whose delete waits for nothing else ({@link #waits}); a marker also counted by a count that waits for the phases
     * is deleted after that one, in the third phase.
     */
    static Set<Key> deletedAfterEarlyCounts(List<Step> steps, List<Count> early) {
        Set<Key> markers = new HashSet<>();
        early.forEach(count -> markers.add(count.marker()));
        steps.stream().filter(step -> step instanceof Count count && !early.contains(count))
                .forEach(step -> markers.remove(((Count) step).marker()));
        Set<Key> deleted = new HashSet<>();
        for (Step step : steps) {
            if (step instanceof Delete delete && markers.contains(delete.key()) && !waits(delete, steps, Set.of())) {
                deleted.add(delete.key());
            }
        }
        return deleted;
    }

    /**
     * Whether a delete waits for the writes and counts: when its item is a count's marker (counted first, while it is
     * there), or of a type the plan also writes (a move: the new place appears before the old one goes) or of no
     * declared type. Any other delete (a comment, a membership, beside a counter shard's write) goes out with the
     * writes, so a plan that writes a counter and deletes what it counted takes no round more than the delete alone.
     * The deletes that wait go out beside the looks ({@code PlanExecutor.Steps#afterWrites}): no plan today has a look
     * that reads an item one of them removes (a move's walk reads the new parent's entries, not the old one's); a plan
     * that would must order the two itself.
     */
    static boolean waits(Delete delete, List<Step> steps, Set<Key> markers) {
        Optional<ItemType> type = KeyPlan.typeOf(delete.key());
        return markers.contains(delete.key()) || type.isEmpty() || steps.stream()
                .anyMatch(step -> step instanceof Write write && KeyPlan.typeOf(write.update().key()).equals(type));
    }
}
