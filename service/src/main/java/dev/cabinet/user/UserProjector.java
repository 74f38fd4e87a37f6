package dev.cabinet.user;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.projection.LegacyProjector;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Projects user events onto the profile item, guarded by the user stream's version, then hands a changed name or avatar
 * to every feature that copies it ({@link ProfileCopies}).
 */
@ApplicationScoped
public class UserProjector implements LegacyProjector {

    /** The profile item's version of the user stream it has applied. */
    static final String VERSION = "userVersion";

    private final ProjectionStore store;
    private final Profiles profiles;
    private final List<ProfileCopies> copies;

    UserProjector(ProjectionStore store, Profiles profiles, Instance<ProfileCopies> copies) {
        this.store = store;
        this.profiles = profiles;
        this.copies = copies.stream().toList();
    }

    @Override
    public List<EventType<?>> eventTypes() {
        return List.of(UserEvent.REGISTERED, UserEvent.PROFILE_UPDATED);
    }

    @Override
    public Uni<Void> apply(ReceivedEvent event) {
        if (event.data() instanceof UserRegistered) {
            UserRegistered e = (UserRegistered) event.data();
            return registered(e, event.version()).chain(() -> refreshCopies(e.userId()));
        }
        UserProfileUpdated e = (UserProfileUpdated) event.data();
        Uni<Void> updated = profileUpdated(e, event.version());
        return e.name() == null && e.avatarUrl() == null ? updated : updated.chain(() -> refreshCopies(e.userId()));
    }

    /**
     * Runs even when the profile update itself was a no-op (a redelivery): the first attempt may have stopped before
     * reaching every copy. It copies the profile as stored, which may already be newer than this event.
     */
    private Uni<Void> refreshCopies(String userId) {
        return profiles.current(userId).chain(profile -> Multi.createFrom().iterable(copies)
                .onItem().transformToUniAndConcatenate(copy -> copy.refresh(profile))
                .collect().last())
                .replaceWithVoid();
    }

    private Uni<Void> registered(UserRegistered e, long version) {
        return store.update(ItemUpdate.of(UserKeys.profile(e.userId()), KeyPlan.USER_PROFILE.name())
                .set("userId", e.userId())
                .set("name", e.name())
                .set("email", e.email())
                .set("avatarUrl", e.avatarUrl())
                .setIfAbsent("registeredAt", e.registeredAt())
                .setIfAbsent("postCount", 0)
                .guardedBy(VERSION, version))
                .replaceWithVoid();
    }

    private Uni<Void> profileUpdated(UserProfileUpdated e, long version) {
        ItemUpdate update = ItemUpdate.of(UserKeys.profile(e.userId())).onlyIfHas("registeredAt").guardedBy(VERSION, version);
        if (e.name() != null) {
            update.set("name", e.name());
        }
        if (e.email() != null) {
            update.set("email", e.email());
        }
        if (e.avatarUrl() != null) {
            update.set("avatarUrl", e.avatarUrl());
        }
        return store.update(update).replaceWithVoid();
    }
}
