package dev.cabinet.user;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.projection.ProjectionStore;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
    public Uni<Void> writeCopies(String userId, Function<ProfileCopy, Uni<?>> write,
            Function<ProfileCopy, Uni<?>> refresh) {
        return current(userId).chain(copied -> writeCopies(copied,
                profile -> write.apply(profile).replaceWith(Optional.<Map<String, AttributeValue>>empty()), refresh));
    }

    /**
     * As {@link #writeCopies(String, Function, Function)}, from a copy the caller has already read (alongside other
     * reads), with a write that may end by writing the profile item itself (a post counted in the author's postCount)
     * and answer it as it left it: that item is the second look, so no second read is made.
     */
    public Uni<Void> writeCopies(ProfileCopy copied,
            Function<ProfileCopy, Uni<Optional<Map<String, AttributeValue>>>> write,
            Function<ProfileCopy, Uni<?>> refresh) {
        return write.apply(copied)
                .chain(profileAfter -> profileAfter.isPresent()
                        ? Uni.createFrom().item(ProfileCopy.of(copied.userId(), profileAfter))
                        : current(copied.userId()))
                .chain(now -> now.version() > copied.version() ? refresh.apply(now) : Uni.createFrom().nullItem())
                .replaceWithVoid();
    }
}
