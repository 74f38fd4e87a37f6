package dev.cabinet.projection;

import dev.cabinet.table.Walk;

import dev.cabinet.table.TableWriter;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import dev.cabinet.projection.Derivation.Derived;
import dev.cabinet.table.Key;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Runs the {@link Derivation}s plans name: the one place their reads, compare-and-sets and cascades happen, so that a
 * derived attribute stays equal to its function of the parent however changes of different items interleave. For one
 * item: read it and its parent, write the derivation as a compare-and-set on what was read (on a lost race, start
 * over), refresh the item's entry under the parent, then read the parent again and start over if it moved meanwhile.
 * An item whose derived attributes changed passes the change on to its children, and so on down.
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

    /** Brings the item's derived attributes up to date, and its dependants' when they changed. */
    public Uni<Void> run(String derivation, Key key) {
        Derivation found = byName.get(derivation);
        if (found == null) {
            return Uni.createFrom().failure(new IllegalArgumentException("no derivation named " + derivation));
        }
        return run(found, key);
    }

    private Uni<Void> run(Derivation derivation, Key key) {
        return deriveOne(derivation, key).chain(changed -> changed
                ? store.forEach(derivation.children(key), walk, child -> run(derivation, derivation.childKey(child)))
                        .replaceWithVoid()
                : Uni.createFrom().voidItem());
    }

    /** Emits whether the item's derived attributes may have changed (so its children must look again). */
    private Uni<Boolean> deriveOne(Derivation derivation, Key key) {
        return store.read(key).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            Map<String, AttributeValue> item = found.get();
            Optional<Key> parentKey = derivation.parent(item);
            Uni<Optional<Map<String, AttributeValue>>> parent = parentKey.isEmpty()
                    ? Uni.createFrom().item(Optional.empty())
                    : store.read(parentKey.get());
            return parent.chain(p -> write(derivation, key, item, parentKey, p));
        });
    }

    private Uni<Boolean> write(Derivation derivation, Key key, Map<String, AttributeValue> item, Optional<Key> parentKey,
            Optional<Map<String, AttributeValue>> parent) {
        Derived derived = derivation.derive(item, parent);
        if (derived.leftBecause().isPresent()) {
            LOG.errorf("%s of %s is left as it is: %s", derivation.name(), key, derived.leftBecause().get());
            return Uni.createFrom().item(false);
        }
        boolean same = derived.write().isEmpty();
        Uni<Boolean> written = same ? Uni.createFrom().item(true) : store.update(derived.write().get());
        return written.chain(ok -> {
            if (!ok) {
                // Someone else wrote the item since it was read: derive again from what it holds now.
                return deriveOne(derivation, key).map(changed -> true);
            }
            if (parentKey.isEmpty()) {
                return Uni.createFrom().item(!same);
            }
            Uni<Boolean> entry = derivation.entry(item).map(store::update).orElse(Uni.createFrom().item(true));
            return entry.chain(() -> store.read(parentKey.get()))
                    .chain(now -> now.isPresent() && parent.isPresent()
                            && derivation.revision(now.get()) != derivation.revision(parent.get())
                                    ? deriveOne(derivation, key).map(changed -> true)
                                    : Uni.createFrom().item(!same));
        });
    }
}
