package dev.cabinet.projection.execution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.Derive;
import dev.cabinet.projection.WritePlan.DeriveChildren;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.projection.WritePlan.OrphanCheck;
import dev.cabinet.projection.WritePlan.Put;
import dev.cabinet.projection.WritePlan.RefreshCopies;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.failure.Rejections;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.CounterChange;
import dev.cabinet.table.DeclaredCopy;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.TableWriter.Page;
import dev.cabinet.table.Walk;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The one way a {@link Projector}'s decision reaches the table, with every guarantee the projectors used to carry
 * themselves:
 * <ol>
 * <li>One round of consistent reads, in one BatchGetItem: the stream's root, its tombstone and every key the
 * projector needs.</li>
 * <li>{@link StreamProgress} says what to do: nothing (applied, or a duplicate record of an applied event), reject,
 * redo the steps recorded on the root, or decide.</li>
 * <li>A new event's root write (the tombstone's, for a deletion) carries the plan's root update, the stream's version
 * guard, the remaining steps encoded ({@link StepCodec}) and the root's recent event ids, in one conditional write:
 * from then on the event is decided, and a redelivery redoes exactly these steps without deciding anew. Where deciding
 * again would give the same plan ({@link Rounds#recordsWithWrites}), the first phase's writes go out in the same round.
 * The first pages of the walks over the root's copies are read in that round too, in either case ({@link
 * #walksFromRoot}).</li>
 * <li>The steps, independent ones concurrently, in five phases: item writes, collection deletes and puts, the deletes
 * that need not wait (see {@link Rounds#waits}) and the fan-outs over the stream's own partition (see {@link
 * Rounds#fansOutEarly}), and the counts whose markers were read beside the recording ({@link Rounds#countsEarly}), each
 * marker they delete right after them; the other counts (their markers exist by then); the other deletes, and beside
 * them copy refreshes, other fan-outs and derivations (each of whose writes needs its item to exist); the root's delete
 * (with the first phase where {@link Rounds#deletesRootEarly} allows it). The counts' flags and token releases are made
 * for the whole batch when it ends ({@link CountTokenRelease}), and so are the copy and orphan checks, the checks of
 * derived attributes the event wrote itself, the walks that only repair a replay's order and the walks over a first
 * page's range made again ({@link BatchEndChecks}), off the events' path.</li>
 * </ol>
 * Every step is idempotent (version guards, count tokens, copy versions), so a redo after a crash anywhere converges.
 * Transient store errors fail the whole application of the event, which {@link EventApplier} retries.
 */
@ApplicationScoped
public class PlanExecutor {

    private final TableWriter store;
    private final Walk walk;
    private final Rejections rejections;
    private final Derivations derivations;
    private final CountTokenRelease tokens;
    private final BatchEndChecks checks;

    PlanExecutor(TableWriter store, Rejections rejections, Derivations derivations, ProjectionConfig config,
            CountTokenRelease tokens, BatchEndChecks checks) {
        this.walk = config.fanOutWalk();
        this.tokens = tokens;
        this.checks = checks;
        this.store = store;
        this.rejections = rejections;
        this.derivations = derivations;
    }

    /** Applies the event through the projector that decides it. */
    @SuppressWarnings("unchecked")
    public <E extends DomainEvent> Uni<Void> apply(Projector<E> projector, ReceivedEvent event) {
        E data = (E) event.data();
        StreamTarget target = projector.target(data);
        List<Key> needs = projector.needs(data);
        List<Key> existence = permanent(projector.existenceNeeds(data));
        List<Key> reads = new ArrayList<>();
        boolean stream = !target.isNone();
        boolean tombstoned = stream && target.tombstone() != null;
        // The checks of the stream's earlier events end before this one is recorded; they start with its reads.
        CompletionStage<Void> earlierChecks = stream ? checks.startWaitingOn(target.root())
                : CompletableFuture.completedFuture(null);
        if (stream) {
            reads.add(target.root());
        }
        if (tombstoned) {
            reads.add(target.tombstone());
        }
        reads.addAll(needs);
        reads.addAll(existence);
        return store.readAll(reads).call(() -> Uni.createFrom().completionStage(earlierChecks)).chain(found -> {
            int at = 0;
            Optional<Map<String, AttributeValue>> root = stream ? found.get(at++) : Optional.empty();
            Optional<Map<String, AttributeValue>> tombstone = tombstoned ? found.get(at++) : Optional.empty();
            Map<Key, Optional<Map<String, AttributeValue>>> needed = new LinkedHashMap<>();
            for (Key key : needs) {
                needed.put(key, found.get(at++));
            }
            Map<Key, Boolean> existing = new LinkedHashMap<>();
            for (Key key : existence) {
                existing.put(key, found.get(at++).isPresent());
            }
            StreamProgress progress = stream
                    ? StreamProgress.of(target, root, tombstone, event.id(), event.version())
                    : StreamProgress.fact();
            Supplier<WritePlan> decide = () -> projector.decide(data, new Reads(root, needed, existing,
                    stream ? target.stream().versionAttribute() : null, event.version()));
            return switch (progress.kind()) {
                case DONE -> Uni.createFrom().voidItem();
                case REJECTED -> rejections.reject(event, progress.rejection());
                case REDO -> redo(target, event, progress, decide);
                case NEW -> carryOut(target, event, decide.get(), root, needs, needed);
            };
        });
    }

    /** The keys of existence needs, each checked to be of a permanent type: otherwise the read could change. */
    static List<Key> permanent(List<Key> existence) {
        for (Key key : existence) {
            if (!KeyPlan.typeOf(key).map(ItemType::permanent).orElse(false)) {
                throw new IllegalStateException(key + " is an existence need, but its item type is not permanent "
                        + "(KeyPlan): declare it in needs()");
            }
        }
        return existence;
    }

    /**
     * Carries out the steps recorded on the root (or tombstone) again: they may have been cut short. A person's data
     * withheld from the record comes from the event decided again ({@code decideAgain}, called only then), from what
     * it reads now: the event's own values, or an erased person's placeholders ({@link StepCodec#filled}).
     */
    private Uni<Void> redo(StreamTarget target, ReceivedEvent event, StreamProgress progress,
            Supplier<WritePlan> decideAgain) {
        List<Step> recorded = StepCodec.decode(progress.recordedOn().orElseThrow().get(Attributes.PENDING_STEPS));
        Uni<Void> redone = run(target, event, StepCodec.filled(recorded, decideAgain), progress.onTombstone(),
                Optional.empty(), false, Map.of());
        if (!StepCodec.holdPersonalData(recorded)) {
            return redone;
        }
        // Recorded by an older release, with a person's data in clear: recorded again without it, while the event is
        // still the stream's latest.
        return redone.call(() -> store.update(ItemUpdate.of(recordedOn(target, progress.onTombstone()))
                .set(Attributes.PENDING_STEPS, StepCodec.encode(recorded))
                .onlyIfEquals(target.stream().versionAttribute(), event.version())));
    }

    /**
     * Carries out a plan decided for a new event from the {@code root} and the {@code read} keys as they were read:
     * records it on the stream, then runs its steps; the recording and the first writes go out together when
     * {@link Rounds#recordsWithWrites} allows it.
     */
    Uni<Void> carryOut(StreamTarget target, ReceivedEvent event, WritePlan plan,
            Optional<Map<String, AttributeValue>> root, List<Key> read) {
        return carryOut(target, event, plan, root, read, Map.of());
    }

    /**
     * As above, with the items the decision read as it read them ({@code decidedFrom}): a derivation of the stream's
     * root starts from the parent as read there, which its look at the parent after its write checks (a folder's
     * move: a read of the new parent fewer).
     */
    private Uni<Void> carryOut(StreamTarget target, ReceivedEvent event, WritePlan plan,
            Optional<Map<String, AttributeValue>> root, List<Key> read,
            Map<Key, Optional<Map<String, AttributeValue>>> decidedFrom) {
        if (plan.rejection().isPresent()) {
            return rejections.reject(event, plan.rejection().get());
        }
        if (target.isNone()) {
            return run(target, event, plan.steps(), false, Optional.empty(), false, Map.of());
        }
        ItemUpdate record = recordingWrite(target, plan, root, event.id(), event.version(),
                checks.waitingOn(target.root()));
        // The root as the recording write leaves it saves a read when a step looks at it next: a copy's source, a
        // count's marker (a like counted on itself), or the item a derivation starts from (a folder's path).
        boolean rootNeeded = !plan.deletesRoot() && plan.steps().stream().anyMatch(step -> sourceOf(step) != null
                && sourceOf(step).equals(target.root())
                || step instanceof Count count && count.marker().equals(target.root())
                || step instanceof Derive derive && derive.key().equals(target.root()));
        Uni<Recording> recorded = rootNeeded
                ? store.updateAndGet(record).map(now -> now.isPresent() ? Recording.made(now) : Recording.REFUSED)
                : store.update(record).map(made -> made ? Recording.made(Optional.empty()) : Recording.REFUSED);
        Uni<Map<KeyQuery, Page>> walksStarted = firstPages(walksFromRoot(target, plan, root));
        if (Rounds.recordsWithWrites(target, plan, read)) {
            Steps run = new Steps(target, event, plan.steps(), Optional.empty(), true,
                    new FirstAttempt(List.of(), Map.of(), decidedFrom));
            return Uni.combine().all().unis(recorded, run.writesWithRecording(), walksStarted)
                    .with((recording, written, pages) -> {
                        run.startedWalks(pages);
                        return recording;
                    })
                    .chain(recording -> {
                        if (!recording.made()) {
                            // Another attempt recorded the event: the counts sent beside are settled all the same.
                            return afterRecordingRefused(target, event, plan)
                                    .invoke(run::settleCountsMadeAlongside);
                        }
                        run.seen(target.root(), recording.rootNow());
                        return run.afterWrites(plan.deletesRoot());
                    });
        }
        List<Count> early = Rounds.countsEarly(target, plan);
        return Uni.combine().all().unis(recorded, walksStarted, markersOf(early)).asTuple()
                .chain(made -> !made.getItem1().made()
                        ? afterRecordingRefused(target, event, plan)
                        : run(target, event, plan.steps(), plan.deletesRoot(), made.getItem1().rootNow(), true,
                                made.getItem2(), new FirstAttempt(early, made.getItem3(), decidedFrom)));
    }

    /** The early counts' markers, read together (no call when there are none). */
    private Uni<Map<Key, Optional<Map<String, AttributeValue>>>> markersOf(List<Count> early) {
        if (early.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<Key> markers = early.stream().map(Count::marker).distinct().toList();
        return store.readAll(markers).map(found -> {
            Map<Key, Optional<Map<String, AttributeValue>>> looked = new HashMap<>();
            for (int i = 0; i < markers.size(); i++) {
                looked.put(markers.get(i), found.get(i));
            }
            return looked;
        });
    }

    /**
     * What an event's first attempt read before its writes: the markers of the counts it makes with the first phase
     * ({@link Rounds#countsEarly}), as read beside the recording, and the items its decision read ({@code
     * decidedFrom}).
     */
    private record FirstAttempt(List<Count> counts, Map<Key, Optional<Map<String, AttributeValue>>> markers,
            Map<Key, Optional<Map<String, AttributeValue>>> decidedFrom) {

        static final FirstAttempt NONE = new FirstAttempt(List.of(), Map.of(), Map.of());
    }

    /**
     * The walks of the plan's refresh of the root's copies, composed from the root as read before the event (pure):
     * their first pages are read beside the recording write, a round before the walks could start from the root as
     * recorded. A holder written while they are read, whose own copy check read the source before the recording, may be
     * missed: the walk is made again when the batch ends ({@link Steps#looks}), for the holders it did not reach the
     * first time.
     */
    public static Set<KeyQuery> walksFromRoot(StreamTarget target, WritePlan plan,
            Optional<Map<String, AttributeValue>> root) {
        Set<KeyQuery> walks = new LinkedHashSet<>();
        if (target.isNone() || plan.deletesRoot() || root.isEmpty()) {
            return walks;
        }
        for (Step step : plan.steps()) {
            if (step instanceof RefreshCopies refresh && !refresh.whenBatchEnds()
                    && refresh.source().equals(target.root())) {
                copiesToWalk(refresh.source(), root).forEach(copy -> walks.add(copy.walk(root.get())));
            }
        }
        return walks;
    }

    /** The first page of each walk, read together. */
    private Uni<Map<KeyQuery, Page>> firstPages(Set<KeyQuery> walks) {
        if (walks.isEmpty()) {
            return Uni.createFrom().item(Map.of());   // most events: no map, no combined call
        }
        Map<KeyQuery, Page> pages = new ConcurrentHashMap<>();
        return all(walks.stream().map(query -> store.firstPage(query, walk).invoke(page -> pages.put(query, page)))
                .toList()).replaceWith(pages);
    }

    /**
     * What the recording write did: made, with the root as it left it when that was asked for (empty otherwise), or
     * refused by its condition.
     */
    private record Recording(boolean made, Optional<Map<String, AttributeValue>> rootNow) {

        static final Recording REFUSED = new Recording(false, Optional.empty());

        static Recording made(Optional<Map<String, AttributeValue>> rootNow) {
            return new Recording(true, rootNow);
        }
    }

    /**
     * The recording write's condition failed. Either the stream moved on meanwhile (or the plan's own condition on the
     * root said no), and whoever moved it owns the rest; or the write was this event's own, sent again: the SDK resends
     * a call whose answer it did not get (an attempt timeout, a reset connection), and the resent write meets the
     * version its first attempt recorded. The stream as it is now tells which: an event recorded there is redone, as a
     * redelivery would, so its steps are never lost (issue 44), a person's data withheld from them taken from the
     * {@code plan} just decided. One read, on this path only.
     */
    private Uni<Void> afterRecordingRefused(StreamTarget target, ReceivedEvent event, WritePlan plan) {
        List<Key> keys = target.tombstone() != null ? List.of(target.root(), target.tombstone())
                : List.of(target.root());
        return store.readAll(keys).chain(found -> {
            StreamProgress progress = StreamProgress.of(target, found.get(0),
                    keys.size() > 1 ? found.get(1) : Optional.empty(), event.id(), event.version());
            return progress.kind() == StreamProgress.Kind.REDO ? redo(target, event, progress, () -> plan)
                    : Uni.createFrom().voidItem();
        });
    }

    /** Where an event is recorded on its stream: the tombstone for a deletion that leaves one, else the root (pure). */
    private static Key recordedOn(StreamTarget target, boolean deletesRoot) {
        return deletesRoot && target.tombstone() != null ? target.tombstone() : target.root();
    }

    /**
     * The write that records a new event on its stream (pure, for tests): the plan's root update (or a bare update of
     * the root; for a deletion, of the tombstone), guarded by the stream's version, only on an existing root unless the
     * event creates it, with the steps still to do and the root's recent event ids.
     */
    public static ItemUpdate recordingWrite(StreamTarget target, WritePlan plan,
            Optional<Map<String, AttributeValue>> root, String eventId, long version) {
        return recordingWrite(target, plan, root, eventId, version, List.of());
    }

    /**
     * The recording write, which also records {@code waiting}, the checks of the stream's earlier events not made yet
     * (those that failed: the others have ended before this event is recorded, see {@link BatchEndChecks}): a redo of
     * this event makes them, should a crash come first.
     */
    static ItemUpdate recordingWrite(StreamTarget target, WritePlan plan, Optional<Map<String, AttributeValue>> root,
            String eventId, long version, List<Step> waiting) {
        boolean onTombstone = plan.deletesRoot() && target.tombstone() != null;
        Key key = recordedOn(target, plan.deletesRoot());
        ItemUpdate write = plan.root() != null ? plan.root().withKey(plan.root().key()) : ItemUpdate.of(key);
        if (!write.key().equals(key)) {
            throw new IllegalStateException("the plan's root write is on " + write.key() + ", the stream's on " + key);
        }
        write.guardedBy(target.stream().versionAttribute(), version);
        if (!onTombstone && !target.creates() && !target.upserts()) {
            write.onlyIfExists();
        }
        List<Step> steps = new ArrayList<>(plan.steps());
        steps.addAll(waiting);
        if (onTombstone && StepCodec.withholdsFrom(steps)) {
            // A redo on a tombstone decides nothing again: its root may be gone, and the values with it.
            throw new IllegalStateException("a deletion's steps write a person's data, which its record cannot hold");
        }
        write.set(Attributes.PENDING_STEPS, steps.isEmpty() ? null : StepCodec.encode(steps));
        write.set(Attributes.RECENT_EVENT_IDS, StreamProgress.recording(root, eventId));
        return write;
    }

    /**
     * The steps, in their phases (see {@link Steps}); {@code rootNow} is the root as the recording write left it, when
     * asked for; {@code firstTime} says the event was decided just now, not redone.
     */
    private Uni<Void> run(StreamTarget target, ReceivedEvent event, List<Step> steps, boolean deletesRoot,
            Optional<Map<String, AttributeValue>> rootNow, boolean firstTime, Map<KeyQuery, Page> walksStarted) {
        return run(target, event, steps, deletesRoot, rootNow, firstTime, walksStarted, FirstAttempt.NONE);
    }

    private Uni<Void> run(StreamTarget target, ReceivedEvent event, List<Step> steps, boolean deletesRoot,
            Optional<Map<String, AttributeValue>> rootNow, boolean firstTime, Map<KeyQuery, Page> walksStarted,
            FirstAttempt attempt) {
        Steps run = new Steps(target, event, steps, rootNow, firstTime, attempt);
        run.startedWalks(walksStarted);
        boolean rootFirst = deletesRoot && Rounds.deletesRootEarly(target, steps);
        return run.writes(rootFirst).chain(() -> run.afterWrites(deletesRoot && !rootFirst));
    }

    /**
     * One event's steps as they run, phase by phase:
     * <ol>
     * <li>{@link #writes}: item writes, puts, collection deletes and the deletes that need not wait (see
     * {@link Rounds#waits}), the fan-outs over the stream's own partition ({@link Rounds#fansOutEarly});
     * for an event applied the first time, also the counter changes of the counts whose marker one of these writes
     * makes, or the recording write beside them (it cannot have been counted yet), and of the counts whose marker was
     * read beside the recording ({@link Rounds#countsEarly}), each followed by the delete of its marker where
     * the plan has one ({@link Rounds#deletedAfterEarlyCounts});</li>
     * <li>{@link #counterChanges}: the other counts, each after a look at its marker (a flagged or gone marker was
     * counted already);</li>
     * <li>{@link #lateDeletes} (the counted markers among them, now that their counts are made) and beside them
     * {@link #looks}, the steps that look at other items after this event's writes (copy refreshes, other fan-outs,
     * derivations; the checks and the other steps made when the batch ends are handed to {@link BatchEndChecks});</li>
     * <li>{@link #settleCounts}, once all of that succeeded: each changed count's marker to be flagged and then its
     * token released when the batch ends ({@link CountTokenRelease}).</li>
     * </ol>
     * A counter change always precedes its marker's flag and its marker's delete, and a token is released only once
     * its marker is flagged (or gone): a crash between any two of them is finished by a redo, which changes no counter
     * twice.
     */
    private final class Steps {

        private final StreamTarget target;
        private final ReceivedEvent event;
        private final List<Step> steps;
        private final String versionAttribute;
        private final long version;
        private final boolean firstTime;
        private final Set<Key> markers = new HashSet<>();
        private final Set<Key> written = new HashSet<>();
        /** Items as this event's writes left them, where a write answered them: a later look needs no read. */
        private final Map<Key, Optional<Map<String, AttributeValue>>> seen = new HashMap<>();
        /** The count changes made (to flag), by count; those not made are released at once. */
        private final Map<Count, CounterChange> changed = new java.util.concurrent.ConcurrentHashMap<>();
        private final List<Delete> late = new ArrayList<>();
        private final FirstAttempt attempt;
        /**
         * Whether a write of the first phase was refused by its guard although the event was decided just now: an
         * earlier attempt wrote it before a crash, without recording the event, and the copies that attempt made may
         * be older than the ones decided now, so every copy check refreshes its holders (each refresh is guarded by the
         * copy's version, so a current holder is left as it is).
         */
        private volatile boolean repeated;
        /** Whether the first writes go out with the recording write, so that {@link #repeated} can happen at all. */
        private boolean withRecording;
        /** The first pages of the walks read beside the recording write ({@link PlanExecutor#walksFromRoot}). */
        private Map<KeyQuery, Page> started = Map.of();

        Steps(StreamTarget target, ReceivedEvent event, List<Step> steps, Optional<Map<String, AttributeValue>> rootNow,
                boolean firstTime) {
            this(target, event, steps, rootNow, firstTime, FirstAttempt.NONE);
        }

        Steps(StreamTarget target, ReceivedEvent event, List<Step> steps, Optional<Map<String, AttributeValue>> rootNow,
                boolean firstTime, FirstAttempt attempt) {
            this.attempt = attempt;
            this.target = target;
            this.event = event;
            this.steps = steps;
            this.versionAttribute = target.isNone() ? null : target.stream().versionAttribute();
            this.version = event.version();
            this.firstTime = firstTime;
            steps.stream().filter(Count.class::isInstance).forEach(step -> markers.add(((Count) step).marker()));
            steps.stream().filter(Write.class::isInstance).forEach(step -> written.add(((Write) step).update().key()));
            rootNow.ifPresent(item -> seen.put(target.root(), rootNow));
        }

        void startedWalks(Map<KeyQuery, Page> pages) {
            this.started = pages;
        }

        /** Phase one, sent together with the recording write. */
        Uni<Void> writesWithRecording() {
            withRecording = true;
            return writes(false);
        }

        /** Phase one, with the root's delete when {@code deletesRoot} (see {@link Rounds#deletesRootEarly}). */
        Uni<Void> writes(boolean deletesRoot) {
            List<Uni<?>> first = new ArrayList<>();
            if (deletesRoot) {
                first.add(store.delete(target.root(), versionAttribute, version));
            }
            List<Map<String, AttributeValue>> puts = new ArrayList<>();
            Set<Key> earlyMarkers = new HashSet<>();
            attempt.counts().forEach(count -> earlyMarkers.add(count.marker()));
            Set<Key> deletedAfterCounts = Rounds.deletedAfterEarlyCounts(steps, attempt.counts());
            for (Step step : steps) {
                if (step instanceof Delete delete && deletedAfterCounts.contains(delete.key())) {
                    continue;   // goes right after its counts, below
                }
                if (step instanceof Delete delete) {
                    if (Rounds.waits(delete, steps, markers)) {
                        late.add(delete);
                    } else {
                        first.add(delete(delete.key()));
                    }
                } else if (step instanceof Write write) {
                    ItemUpdate update = guarded(write.update(), versionAttribute, version);
                    // A write of a marker still to be looked at answers the item as it left it: no read of it then.
                    first.add(markers.contains(update.key()) && !firstTime
                            ? store.updateAndGet(update).invoke(now -> seen(update.key(), now))
                            : store.update(update).invoke(applied -> {
                                // Only ever set, never written back: writes end on several threads at once, and a
                                // read-modify-write (|=) of one that was applied could undo another's refusal.
                                if (withRecording && !applied) {
                                    repeated = true;
                                }
                            }));
                } else if (step instanceof DeleteCollection collection) {
                    first.add(store.deleteAll(collection.query()));
                } else if (step instanceof Put put) {
                    puts.add(put.item());
                } else if (step instanceof Count count && countsAlongside(count)) {
                    first.add(change(count, false));
                } else if (step instanceof FanOut fanOut && Rounds.fansOutEarly(fanOut, target, steps)) {
                    first.add(fanOut(fanOut, versionAttribute, version));
                }
            }
            if (!puts.isEmpty()) {
                first.add(store.putAll(puts));
            }
            for (Key marker : earlyMarkers) {
                Uni<Void> counted = all(attempt.counts().stream().filter(count -> count.marker().equals(marker))
                        .map(this::countEarly).toList());
                first.add(deletedAfterCounts.contains(marker) ? counted.chain(() -> delete(marker)) : counted);
            }
            return all(first);
        }

        /** An early count's change, unless its marker, as read beside the recording, is gone or counted already. */
        private Uni<Void> countEarly(Count count) {
            Optional<Map<String, AttributeValue>> marker = attempt.markers().get(count.marker());
            return marker.isEmpty() || CounterChange.counted(marker.get(), count.markerFlag(), version)
                    ? Uni.createFrom().voidItem() : change(count, false).replaceWithVoid();
        }

        /**
         * The phases after the first, then the root's delete for an event that deletes its stream, when it did not go
         * out with the first phase ({@link Rounds#deletesRootEarly}): last, after every step that may look at the root.
         * (Before a redelivery redid a deletion whatever became of its root, a root gone meant the deletion had ended,
         * and a root deleted beside a step left that step undone for good should it be lost in a crash:
         * {@code CrashInAnyRoundTest} found a file's entry under its folder left behind.)
         */
        Uni<Void> afterWrites(boolean deletesRoot) {
            // The looks need not wait for the late deletes: every write a look makes is only on an item that exists
            // (a copy's refresh, a fan-out's change, a derivation's compare-and-set and entry refresh), so one racing
            // a delete either lands first and goes with the item, or is refused. A move's walk starts a round sooner.
            return counterChanges()
                    .chain(() -> all(List.of(lateDeletes(), looks())))
                    .chain(() -> deletesRoot ? store.delete(target.root(), versionAttribute, version)
                            .replaceWithVoid() : Uni.createFrom().voidItem())
                    // Only an attempt that ended settles its counts. One that failed later leaves its tokens pending
                    // for the retry, which may already have read a marker unflagged: a token released meanwhile would
                    // let it count again (FailedAttemptCountTest).
                    .invoke(this::settleCounts);
        }

        /** Phase two. */
        Uni<Void> counterChanges() {
            return all(steps.stream().filter(step -> step instanceof Count count && !countsAlongside(count)
                            && !attempt.counts().contains(count))
                    .map(step -> {
                        Count count = (Count) step;
                        Optional<Map<String, AttributeValue>> known = known(count.marker());
                        Uni<Optional<Map<String, AttributeValue>>> marker = known != null
                                ? Uni.createFrom().item(known) : store.read(count.marker());
                        return marker.chain(now -> now.isEmpty()
                                || CounterChange.counted(now.get(), count.markerFlag(), version)
                                ? Uni.createFrom().voidItem() : change(count, true).replaceWithVoid());
                    }).toList());
        }

        /**
         * Each changed count's marker to be flagged, then its token released, when the batch ends; a count not changed
         * now (its marker gone or flagged already) only has its token released. Nothing of it on the event's path: a
         * flag is the counting event's version, so one written late misleads no later event.
         */
        void settleCounts() {
            TopicPartition from = new TopicPartition(event.position().topic(), event.position().partition());
            for (Step step : steps) {
                if (step instanceof Count count) {
                    CounterChange change = changed.get(count);
                    if (change == null) {
                        tokens.release(count.counter(), event.id(), from, event.fence());
                    } else {
                        tokens.flagThenRelease(change, from);
                    }
                }
            }
        }

        /**
         * After a refused recording, the counts whose changes went out beside it, made or found made before (the
         * token pending: the attempt that recorded made it): flagged, then released, as {@link #settleCounts} would.
         * Left pending, a token that the recording attempt keeps (its partition has a newer owner now) would stay for
         * good; a count not sent is not settled here (its token may belong to a change in flight).
         */
        void settleCountsMadeAlongside() {
            TopicPartition from = new TopicPartition(event.position().topic(), event.position().partition());
            for (Step step : steps) {
                if (step instanceof Count count && changed.get(count) != null) {
                    tokens.flagThenRelease(changed.get(count), from);
                }
            }
        }

        /** Phase three: the deletes that waited for the writes and counts. */
        Uni<Void> lateDeletes() {
            return all(late.stream().map(step -> delete(step.key())).toList());
        }

        /**
         * Phase three, after the late deletes: the steps that look at other items after this event's writes; the
         * checks among them wait for the batch's end ({@link BatchEndChecks}).
         */
        Uni<Void> looks() {
            Key root = target.isNone() ? null : target.root();
            for (Step step : steps) {
                if (step instanceof CopyCheck check) {
                    // A refused first write may have left an older copy than the one checked for, and a redo's check
                    // was decided by an attempt whose holder write may have been refused: refresh it whatever its
                    // version says (a copied version below any source's), also if a later event's redo makes it.
                    CopyCheck made = repeated || !firstTime ? new CopyCheck(check.source(), -1, check.holders())
                            : check;
                    // Made once the holders' own GSI entries show (a comment under its author's partition of GSI2): a
                    // rename recorded after this look then finds the holder in its walk over the index, and one
                    // recorded before it, this look finds. Looked at sooner, a rename recorded between the look and the
                    // entry's showing missed the holder for good (DynamoDB shows GSI entries after the write answers).
                    checks.defer(root, event.type(), made,
                            () -> store.indexesShowWritesOf(made.holders()).chain(() -> copyCheck(made, seen)));
                } else if (step instanceof OrphanCheck check) {
                    checks.defer(root, event.type(), check, () -> orphanCheck(check));
                } else if (step instanceof DeriveChildren children) {
                    // Made again (BatchEndChecks retries a failed check), a walk reads and walks everything below, as
                    // a redo's does: the failed attempt may have brought an item up to date and stopped under it.
                    AtomicBoolean made = new AtomicBoolean();
                    checks.defer(root, event.type(), children, () -> derivations.runChildren(children.derivation(),
                            children.key(), !firstTime || made.getAndSet(true)));
                } else if (whenBatchEnds(step)) {
                    AtomicBoolean made = new AtomicBoolean();
                    checks.defer(root, event.type(), step, () -> last(step, versionAttribute, version, seen,
                            firstTime && !made.getAndSet(true), attempt.decidedFrom()));
                }
            }
            return all(steps.stream()
                    .filter(step -> !(step instanceof FanOut fanOut && Rounds.fansOutEarly(fanOut, target, steps)
                            || whenBatchEnds(step)))
                    .map(step -> step instanceof RefreshCopies refresh
                            ? refreshCopies(refresh.source(), seen, started)
                            : last(step, versionAttribute, version, seen, firstTime, attempt.decidedFrom()))
                    .filter(uni -> uni != null).toList())
                    .invoke(() -> {
                        if (!started.isEmpty()) {
                            // Walks begun before the recording landed may have missed a holder written meanwhile.
                            steps.stream().filter(RefreshCopies.class::isInstance).map(RefreshCopies.class::cast)
                                    .forEach(refresh -> checks.defer(root, event.type(),
                                            RefreshCopies.whenBatchEnds(refresh.source()),
                                            () -> walkAgain(refresh.source(), seen, started)));
                        }
                    });
        }

        /** Whether the step is made when the batch ends, with the checks, rather than as the event's last round. */
        private static boolean whenBatchEnds(Step step) {
            return step instanceof RefreshCopies refresh && refresh.whenBatchEnds()
                    || step instanceof Derive derive && derive.whenBatchEnds();
        }

        /**
         * Whether the count's counter changes while its marker is written: for an event applied the first time, whose
         * marker this plan writes (a write of the first phase, or the root when the recording write goes out with
         * them: a like counted on its own item), so that it cannot have been counted before. Another attempt of the
         * event can beat this one's recording only if it runs at the same time, past a partition's handover; the owner
         * epochs keep such a pair from counting twice: the older attempt's change is refused once the newer one's
         * reached the counter, and the older one releases no token once the newer owner is there (docs/design.md,
         * "Owner epochs").
         */
        private boolean countsAlongside(Count count) {
            return firstTime && (written.contains(count.marker())
                    || withRecording && count.marker().equals(target.root()));
        }

        /**
         * Changes the count's counter; {@code afterWrites} says the first phase's writes had all landed when it was
         * sent. Only then is the counter as the change left it a look at that item after this event's writes: a change
         * sent alongside them may answer before a holder write lands, so a copy check taking its source from that
         * answer could miss a rename that lands in between and whose walk ran before the holder existed (the holder
         * would keep the old name for good). Such a check reads the source again instead.
         */
        private Uni<Optional<Map<String, AttributeValue>>> change(Count count, boolean afterWrites) {
            CounterChange change = new CounterChange(count.counter(), count.counterType().name(), count.attribute(),
                    count.delta(), count.marker(), count.markerFlag(), event.id(), version, event.fence());
            return store.changeCounter(change).invoke(now -> {
                changed.put(count, change);
                if (afterWrites) {
                    seen(count.counter(), now);
                }
            });
        }

        private Uni<?> delete(Key key) {
            return versionAttribute == null ? store.delete(key) : store.delete(key, versionAttribute, version);
        }

        void seen(Key key, Optional<Map<String, AttributeValue>> now) {
            if (now.isPresent()) {
                synchronized (seen) {
                    seen.put(key, now);
                }
            }
        }

        private Optional<Map<String, AttributeValue>> known(Key key) {
            return knownIn(seen, key);
        }
    }

    /**
     * A copy check, made when the batch ends: each holder refreshed from the source (as {@code seen} holds it, when
     * one of the event's writes answered it after the holder's write, else read now) if the source is newer than the
     * copy checked for.
     */
    private Uni<?> copyCheck(CopyCheck check, Map<Key, Optional<Map<String, AttributeValue>>> seen) {
        return current(check.source(), seen).chain(source -> {
            List<Uni<?>> refreshes = new ArrayList<>();
            for (Key holder : check.holders()) {
                DeclaredCopy copy = copyOf(check.source(), holder);
                if (source.isPresent() && copy.walksFor(source.get())
                        && copy.versionOf(source) > check.copiedVersion()) {
                    refreshes.add(refresh(copy, holder, source.get()));
                }
            }
            return all(refreshes);
        });
    }

    /** An orphan check, made when the batch ends: the orphans deleted if the owner's tombstone is there. */
    private Uni<?> orphanCheck(OrphanCheck check) {
        return store.read(check.tombstone()).chain(tombstone -> tombstone.isEmpty() ? Uni.createFrom().voidItem()
                : all(check.orphans().stream().map(store::delete).toList()));
    }

    /**
     * Phase four: the steps other than checks that look at other items after this event's writes; a redo's derivations
     * walk every descendant again ({@code firstTime} false: the crash may have cut the walk short below items it had
     * brought up to date, which would no longer look changed), and so does a derivation made when the batch ends, made
     * again after a failure.
     */
    private Uni<?> last(Step step, String versionAttribute, long version,
            Map<Key, Optional<Map<String, AttributeValue>>> seen, boolean firstTime,
            Map<Key, Optional<Map<String, AttributeValue>>> decidedFrom) {
        if (step instanceof RefreshCopies refresh) {
            return refreshCopies(refresh.source(), seen, Map.of());
        }
        if (step instanceof FanOut fanOut) {
            return fanOut(fanOut, versionAttribute, version);
        }
        if (step instanceof Derive derive) {
            if (derive.whenBatchEnds() && !firstTime) {
                // A check made again (a redo's, or a retry's): everything below is read and walked, see looks().
                return derivations.run(derive.derivation(), derive.key(), null, false, true);
            }
            return derive.whenBatchEnds()
                    ? derivations.check(derive.derivation(), derive.key(), knownIn(seen, derive.key()))
                    : derivations.run(derive.derivation(), derive.key(), knownIn(seen, derive.key()), derive.passDown(),
                            !firstTime, decidedFrom);
        }
        return null;
    }

    /**
     * Every declared copy of the source refreshed from it, by a walk over its holders ({@code started}: walks whose
     * first page was read already).
     */
    private Uni<?> refreshCopies(Key sourceKey, Map<Key, Optional<Map<String, AttributeValue>>> seen,
            Map<KeyQuery, Page> started) {
        return current(sourceKey, seen).chain(source -> all(copiesToWalk(sourceKey, source).stream().map(copy -> {
            KeyQuery query = copy.walk(source.get());
            Function<Map<String, AttributeValue>, Uni<?>> refresh = found -> refresh(copy, copy.holderKey(found),
                    source.get());
            Page first = started.get(query);
            return first != null ? store.forEach(query, walk, refresh, first) : store.forEach(query, walk, refresh);
        }).toList()));
    }

    /**
     * The walks that began with a first page read beside the recording write, made again when the batch ends over that
     * page's range only (the later pages were read after the recording had landed): a holder written there meanwhile
     * is refreshed, the holders that page found are not written twice. Bounded by the page, however many copies.
     */
    private Uni<?> walkAgain(Key sourceKey, Map<Key, Optional<Map<String, AttributeValue>>> seen,
            Map<KeyQuery, Page> started) {
        return current(sourceKey, seen).chain(source -> {
            List<Uni<?>> walks = new ArrayList<>();
            for (DeclaredCopy copy : copiesToWalk(sourceKey, source)) {
                KeyQuery query = copy.walk(source.get());
                Page first = started.get(query);
                if (first != null) {
                    Set<Key> reached = new HashSet<>();
                    first.items().forEach(found -> reached.add(copy.holderKey(found)));
                    KeyQuery range = first.next() == null ? query
                            : query.upTo(first.next().get(query.index().skAttribute()).s());
                    walks.add(store.forEach(range, walk, found -> {
                        Key holder = copy.holderKey(found);
                        return reached.contains(holder) ? Uni.createFrom().voidItem()
                                : refresh(copy, holder, source.get());
                    }));
                }
            }
            return all(walks);
        });
    }

    /** The holder's copy refreshed from the source as it is now. */
    private Uni<Boolean> refresh(DeclaredCopy copy, Key holder, Map<String, AttributeValue> source) {
        return store.update(copy.refresh(holder, source));
    }

    /** The declared copies of the source that its state now asks to walk. */
    private static List<DeclaredCopy> copiesToWalk(Key sourceKey, Optional<Map<String, AttributeValue>> source) {
        return KeyPlan.COPIES.stream().filter(copy -> source.isPresent() && copy.source().root().matches(sourceKey)
                && copy.versionOf(source) >= 0 && copy.walksFor(source.get())).toList();
    }

    /** The fan-out's change on every item its query finds (or the item of its target type each names). */
    private Uni<?> fanOut(FanOut fanOut, String versionAttribute, long version) {
        return store.forEach(fanOut.query(), walk, found -> {
            Key key = fanOut.target() == null
                    ? Key.of(found)
                    : fanOut.target().keyFrom(strings(found));
            return store.update(guarded(fanOut.change().withKey(key).onlyIfExists(), versionAttribute, version));
        });
    }

    /** The item as this event's writes left it, if one of them answered it; else a consistent read. */
    private Uni<Optional<Map<String, AttributeValue>>> current(Key key,
            Map<Key, Optional<Map<String, AttributeValue>>> seen) {
        Optional<Map<String, AttributeValue>> known = knownIn(seen, key);
        return known != null ? Uni.createFrom().item(known) : store.read(key);
    }

    /** The item as one of this event's writes answered it, or null when none did (the steps run concurrently). */
    private static Optional<Map<String, AttributeValue>> knownIn(Map<Key, Optional<Map<String, AttributeValue>>> seen,
            Key key) {
        synchronized (seen) {
            return seen.get(key);
        }
    }

    /** The declared copy that puts the source's attributes on the holder: a plan may only name declared copies. */
    static DeclaredCopy copyOf(Key source, Key holder) {
        return KeyPlan.COPIES.stream().filter(copy -> copy.covers(source, holder)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no copy from " + source + " to " + holder
                        + " is declared in the key plan"));
    }

    /** A write of the stream's item, guarded by the stream's version unless it names that attribute itself. */
    static ItemUpdate guarded(ItemUpdate update, String versionAttribute, long version) {
        ItemUpdate copy = update.withKey(update.key());
        return versionAttribute == null || copy.mentions(versionAttribute) ? copy
                : copy.guardedBy(versionAttribute, version);
    }

    private static Key sourceOf(Step step) {
        return step instanceof CopyCheck check ? check.source()
                : step instanceof RefreshCopies refresh ? refresh.source() : null;
    }

    private static Map<String, String> strings(Map<String, AttributeValue> item) {
        Map<String, String> values = new HashMap<>();
        item.forEach((name, value) -> {
            if (value.s() != null) {
                values.put(name, value.s());
            }
        });
        return values;
    }

    private static Uni<Void> all(List<? extends Uni<?>> unis) {
        if (unis.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        @SuppressWarnings("unchecked")
        List<Uni<Object>> list = (List<Uni<Object>>) (List<?>) unis;
        return Uni.join().all(list).andFailFast().replaceWithVoid();
    }
}
