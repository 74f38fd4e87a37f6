package dev.cabinet.user;

import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.projection.ProjectionStore;
import io.smallrye.mutiny.Uni;

/** The projectors' access to profiles, for the items that copy a user's name. */
@ApplicationScoped
public class Profiles {

    private final ProjectionStore store;

    Profiles(ProjectionStore store) {
        this.store = store;
    }

    /** The profile as it is now (a consistent read). */
    public Uni<ProfileCopy> current(String userId) {
        return store.read(UserKeys.profile(userId)).map(item -> ProfileCopy.of(userId, item));
    }

    /**
     * Writes new items that copy the user's profile, then reads the profile again and refreshes the items if it changed
     * meanwhile. With the rename side doing the opposite (write the profile, then find and refresh the copies), one of
     * the two always sees the other: either this second read sees the rename, or the rename's search runs after these
     * items were written and finds them.
     */
    public Uni<Void> writeCopies(String userId, Function<ProfileCopy, Uni<?>> write, Function<ProfileCopy, Uni<?>> refresh) {
        return current(userId).chain(copied -> write.apply(copied)
                .chain(() -> current(userId))
                .chain(now -> now.version() > copied.version() ? refresh.apply(now) : Uni.createFrom().nullItem()))
                .replaceWithVoid();
    }
}
