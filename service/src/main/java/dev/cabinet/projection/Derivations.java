package dev.cabinet.projection;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.Key;
import io.smallrye.mutiny.Uni;

/** Runs the {@link Derivation}s plans name: the one place their read, compare-and-set and cascade happen. */
@ApplicationScoped
public class Derivations {

    /** Brings the item's derived attributes up to date, and its dependants' when they changed. */
    public Uni<Void> run(String derivation, Key key) {
        return Uni.createFrom().failure(new UnsupportedOperationException("derivation " + derivation + " for " + key));
    }
}
