package dev.cabinet.projection.execution;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import dev.cabinet.projection.Derivation.Derived;
import dev.cabinet.projection.Derivation;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.TableWriter.Page;
import dev.cabinet.table.Walk;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Runs the {@link Derivation}s plans name: the one place their reads, compare-and-sets and cascades happen, so that a
 * derived attribute stays equal to its function of the parent however changes of different items interleave. For one
 * item: read it (or take it as the event's own write answered it) and its parent (or take it as the walk had it: its
 * own write of it, or as it found it), write the derivation as a compare-and-set on what was read (on a lost race,
 * start over), then refresh the item's entry under the parent and, in the same round, read the parent again, starting
 * over if it moved since the parent was had; the first page of the item's children is read in that round too when
 * they are walked next. An item whose derived attributes changed passes the change on to its children, and so on
 * down; where this walk wrote them (or the event passes them down), each child is written as its entry tells it,
 * unread ({@link Derivation#fromEntry}).
 */
@ApplicationScoped
public class Derivations {

    private static final Logger LOG = Logger.getLogger(Derivations.class);

    private final Map<String, Derivation> byName = new HashMap<>();
    private final TableWriter store;
    private final Walk walk;

    Derivations(Instance<Derivation> derivations, TableWriter store, ProjectionConfig config) {
        this.walk = config.fanOutWalk();
        for (Derivation derivation : derivations) {
            if (byName.put(derivation.name(), derivation) != null) {
                throw new IllegalStateException("two derivations are named " + derivation.name());
            }
        }
        this.store = store;
    }

    /**
     * Brings the item's derived attributes up to date, and its dependants' when they changed, or whatever they are when
     * {@code passDown} (the event's write gave the item them already), or everywhere when {@code again} (the event is
     * redone after a crash, which may have cut its walk short below items it had brought up to date already, so that
     * they no longer look changed). {@code known} is the item as a write of it just answered (null: read it): a stale
     * one costs a lost compare-and-set, after which the item is read, or, where it looks up to date, its children's
     * writes from it, each started over at its second look at the item.
     */
    public Uni<Void> run(String derivation, Key key, Optional<Map<String, AttributeValue>> known, boolean passDown,
            boolean again) {
        return run(derivation, key, known, passDown, again, Map.of());
    }

    /**
     * As above; {@code decidedFrom} holds items as the event's decision read them: where the item's parent is among
     * them, the derivation starts from it rather than reading it (the look at the parent after the write, which every
     * derivation here makes, finds a change since: a folder's move reads its new parent once, not twice).
     */
    public Uni<Void> run(String derivation, Key key, Optional<Map<String, AttributeValue>> known, boolean passDown,
            boolean again, Map<Key, Optional<Map<String, AttributeValue>>> decidedFrom) {
        return named(derivation, found -> run(found, key, known, parentAsRead(found, known, decidedFrom), passDown,
                false, again));
    }

    /** The item's parent as the decision read it, when the item is known and its parent was read; else null. */
    private static Parent parentAsRead(Derivation derivation, Optional<Map<String, AttributeValue>> known,
            Map<Key, Optional<Map<String, AttributeValue>>> decidedFrom) {
        if (known == null || known.isEmpty()) {
            return null;
        }
        return derivation.parent(known.get())
                .flatMap(parent -> decidedFrom.getOrDefault(parent, Optional.empty())
                        .map(item -> new Parent(parent, item)))
                .orElse(null);
    }

    /**
     * The check, at the batch's end, of derived attributes the event wrote with the item and its entry under the parent
     * (a {@link dev.cabinet.projection.WritePlan.Derive#checking} step): like {@link #run}, but when they are up to date
     * nothing more is done. The entry holds what the item holds, and it was there before the parent was read, so a
     * change of the parent after that read finds it in its walk: neither the entry's refresh nor a second look at the
     * parent would tell anything.
     */
    public Uni<Void> check(String derivation, Key key, Optional<Map<String, AttributeValue>> known) {
        return named(derivation, found -> run(found, key, known, false, true, false));
    }

    /**
     * Runs the derivation for each of the item's children, whatever the item's own derived attributes are: for children
     * that were written before the item existed; {@code again} as in {@link #run}.
     */
    public Uni<Void> runChildren(String derivation, Key key, boolean again) {
        return named(derivation, found -> children(found, key, Left.NOTHING, again, false));
    }

    /** The work with the derivation of that name; a failure when none has it. */
    private Uni<Void> named(String derivation, Function<Derivation, Uni<Void>> work) {
        Derivation found = byName.get(derivation);
        return found == null ? Uni.createFrom().failure(new IllegalArgumentException("no derivation named "
                + derivation)) : work.apply(found);
    }

    private Uni<Void> run(Derivation derivation, Key key, Optional<Map<String, AttributeValue>> known,
            boolean passDown, boolean check, boolean again) {
        return run(derivation, key, known, null, passDown, check, again);
    }

    private Uni<Void> run(Derivation derivation, Key key, Optional<Map<String, AttributeValue>> known, Parent parent,
            boolean passDown, boolean check, boolean again) {
        return run(derivation, key, known, parent, passDown, check, again, false);
    }

    /** {@code fromEntry}: {@code known} is the item as its entry told it ({@link Derivation#fromEntry}), not read. */
    private Uni<Void> run(Derivation derivation, Key key, Optional<Map<String, AttributeValue>> known, Parent parent,
            boolean passDown, boolean check, boolean again, boolean fromEntry) {
        // An item not found, or left as it is (a loop two crossing moves made), passes nothing down, even when told
        // to: a redo's walk round a loop would never end.
        return deriveOne(derivation, key, known, parent, check, passDown || again, fromEntry).chain(left -> left.item()
                != null && (left.changed() || passDown || again)
                        ? children(derivation, key, left, again, !again && (passDown || left.wrote()))
                        : Uni.createFrom().voidItem());
    }

    /**
     * The derivation run for each child of the item (found through its entries), and on down where they change (or
     * everywhere, {@code again}); {@code left} is what the item's own derivation did: each child derives from the item
     * as it had it ({@link Left#item}; if it changes meanwhile, the child's second look at its parent finds that), and
     * the walk starts from the first page of entries read with the item's last look ({@link Left#children}), if any.
     * {@code fromEntries}: the item's derived attributes were just written by this walk, or the event that changed
     * them says they are to be passed down, so its children are behind it: each is taken as its entry tells it
     * ({@link Derivation#fromEntry}, no read) and written. Otherwise (a redo's walk, a walk of children written before
     * their parent existed, a walk started over at an item some other walk had brought up to date) each is read, and
     * one found up to date is not written.
     */
    private Uni<Void> children(Derivation derivation, Key key, Left left, boolean again, boolean fromEntries) {
        Parent parent = left.item() == null ? null : new Parent(key, left.item());
        Function<Map<String, AttributeValue>, Uni<?>> derive = child -> {
            Optional<Map<String, AttributeValue>> told = parent != null && fromEntries
                    ? derivation.fromEntry(child, parent.item()) : Optional.empty();
            return run(derivation, derivation.childKey(child), told.isPresent() ? told : null, parent, false, false,
                    again, told.isPresent());
        };
        KeyQuery query = derivation.children(key);
        return (left.children() != null ? store.forEach(query, walk, derive, left.children())
                : store.forEach(query, walk, derive)).replaceWithVoid();
    }

    /** A parent as a walk's own derivation of it left it. */
    private record Parent(Key key, Map<String, AttributeValue> item) {
    }

    /**
     * What one derivation did: whether the item's derived attributes may have changed (so its children must look
     * again), whether this derivation wrote them (the children are behind then: written from their entries), the item
     * as it left it (null: not found, or left as it was for a reason logged), and the first page of its children's
     * entries when it was read with its last look at the parent (null: not read yet).
     */
    private record Left(boolean changed, boolean wrote, Map<String, AttributeValue> item, Page children) {

        static final Left NOTHING = new Left(false, false, null, null);

        Left asChanged() {
            return new Left(true, wrote, item, children);
        }

        Left withChildren(Page page) {
            return new Left(changed, wrote, item, page);
        }
    }

    /**
     * Derives the item's attributes; {@code parent}, when not null, is the item's parent as a walk left it or as the
     * event's decision read it (read otherwise); {@code check}: the item and its entry were written together, see
     * {@link #check}; {@code fromEntry}: {@code known} is the item as its entry told it.
     */
    private Uni<Left> deriveOne(Derivation derivation, Key key, Optional<Map<String, AttributeValue>> known,
            Parent knownParent, boolean check, boolean walksOn, boolean fromEntry) {
        Uni<Optional<Map<String, AttributeValue>>> read = known != null ? Uni.createFrom().item(known)
                : store.read(key);
        return read.chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(Left.NOTHING);
            }
            Map<String, AttributeValue> item = found.get();
            Optional<Key> parentKey = derivation.parent(item);
            Uni<Optional<Map<String, AttributeValue>>> parent = parentKey.isEmpty()
                    ? Uni.createFrom().item(Optional.empty())
                    : knownParent != null && knownParent.key().equals(parentKey.get())
                            ? Uni.createFrom().item(Optional.of(knownParent.item()))
                            : store.read(parentKey.get());
            return parent.chain(p -> write(derivation, key, item, parentKey, p, check, walksOn, fromEntry));
        });
    }

    /**
     * Writes the derivation, then refreshes the entry and looks at the parent again; an item whose children are walked
     * next ({@code walksOn}, or its derived attributes changed) has their first page read in that same round: any child
     * whose entry was there when that page was read is walked; one written later derives from the item as written, if
     * not in its own event then by its check when its batch ends, which reads the parent after this write.
     */
    private Uni<Left> write(Derivation derivation, Key key, Map<String, AttributeValue> item, Optional<Key> parentKey,
            Optional<Map<String, AttributeValue>> parent, boolean check, boolean walksOn, boolean fromEntry) {
        Derived derived = derivation.derive(item, parent);
        if (derived.leftBecause().isPresent() && fromEntry) {
            // An entry the item has left (a move whose old entry is not deleted yet): what the item itself says.
            return deriveOne(derivation, key, null, null, false, walksOn, false);
        }
        if (derived.leftBecause().isPresent()) {
            LOG.errorf("%s of %s is left as it is: %s", derivation.name(), key, derived.leftBecause().get());
            return Uni.createFrom().item(Left.NOTHING);
        }
        boolean same = derived.write().isEmpty();
        // The item as the derivation left it: its entry is refreshed from that, so that the entry holds the same
        // revision whether this walk wrote the item or found it written (a redo after a crash).
        Uni<Optional<Map<String, AttributeValue>>> written = same ? Uni.createFrom().item(Optional.of(item))
                : store.updateAndGet(derived.write().get());
        return written.chain(left -> {
            if (left.isEmpty()) {
                // Someone else wrote the item since it was read: derive again from what it holds now.
                return deriveOne(derivation, key, null, null, false, walksOn, false).map(Left::asChanged);
            }
            Left done = new Left(!same, !same, left.get(), null);
            if (parentKey.isEmpty() || check && same) {
                return Uni.createFrom().item(done);
            }
            // The entry exists already (the event's writes, or the walk that found it, came first), so a change of the
            // parent after the look below finds this item in its walk: the refresh need not precede the look.
            Uni<Boolean> entry = derivation.entry(left.get()).map(store::update).orElse(Uni.createFrom().item(true));
            Uni<Optional<Page>> children = walksOn || !same
                    ? store.firstPage(derivation.children(key), walk).map(Optional::of)
                    : Uni.createFrom().item(Optional.empty());
            return Uni.combine().all().unis(entry, store.read(parentKey.get()), children).asTuple()
                    .chain(refreshedNowAndChildren -> {
                        Optional<Map<String, AttributeValue>> now = refreshedNowAndChildren.getItem2();
                        return now.isPresent() && parent.isPresent()
                                && derivation.revision(now.get()) != derivation.revision(parent.get())
                                        ? deriveOne(derivation, key, null, null, false, walksOn, false)
                                                .map(Left::asChanged)
                                        : Uni.createFrom().item(done.withChildren(
                                                refreshedNowAndChildren.getItem3().orElse(null)));
                    });
        });
    }
}
